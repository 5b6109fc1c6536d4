package main

import (
	"context"
	"flag"
	"os"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/harness"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/render"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// runOptions are run's flags: harness.Options bound directly, and the
// outputs beyond the report.
type runOptions struct {
	common
	ho             harness.Options
	countCacheSim  bool
	shard          plan.Asked
	jsonOut, html  bool
	junit, summary string
}

const runHelp = `Usage: halebench run [flags]

Builds the toolchain and bench images (cached by content), runs every bench of
the suite in every language — each (bench, language) a job for the sampler in
that language's CPU-pinned container (one per language and cpuset for the whole
run), a warm-up and --iters samples — then gates the subject's medians against
baselines.json and writes results/run-<UTC stamp>-<id>.json. The grid goes to
stdout, progress to stderr. Every input is checked before the engine is asked.

A subject bench is ok, regression (median over its band AND a significant
shift), inconclusive (the run cannot resolve the band, or a suspect did not
confirm), improved, mem_regression, incomparable_machine (the baselines were
recorded on another machine: nothing gates), or a failure.

Exit codes: 0 fine (inconclusive too, unless --strict), 1 the subject regressed
(time, memory or instructions) or failed on a bench (did not build, crashed, timed out, bad
output, parity mismatch, a baselined bench gone), 2 the run could not be made,
3 in CI (CI=true) the subject's toolchain could not be had, so nothing was gated
(the other languages are measured and the report written first; on a workstation
a warning and 0), 130 interrupted.

In CI: --junit=FILE writes one JUnit test case per subject bench; --summary=FILE
(and $GITHUB_STEP_SUMMARY, when set) gets a Markdown summary appended, the
verdict first. When the run made a report, the last line on stderr is its
verdict (--quiet too), e.g.
  halebench: verdict regression — 1 regression (fn_modular +31.0% time), 21 ok
--cache-dir=DIR restores the images from a cache folder a CI cache step
hands over (checked, never trusted by name) and keeps them there;
--print-cache-key prints the key to store it under.

Flags:
`

func (o *runOptions) addFlags(fs *flag.FlagSet) {
	o.ho.MemLimit = 4 << 30
	o.common.addFlags(fs)
	addCountFlags(fs, &o.ho, &o.countCacheSim)
	addShardFlags(fs, &o.shard)
	fs.IntVar(&o.ho.Iters, "iters", 5, "measured samples per bench and language")
	fs.IntVar(&o.ho.Warmup, "warmup", 1, "discarded warm-up runs before the samples")
	fs.StringVar(&o.ho.Bench, "bench", "", "run only these benches (a comma-separated list)")
	fs.BoolVar(&o.ho.NoComparative, "no-comparative", false, "the subject only, no sibling languages")
	fs.BoolVar(&o.ho.UpdateBaselines, "update-baselines", false, "record the subject's figures into baselines.json from --runs independent runs (keeps overrides, notes and every unknown key)")
	fs.IntVar(&o.ho.Runs, "runs", 0, "independent runs --update-baselines records, each in fresh containers (default 5; 1 makes the band a guess)")
	fs.IntVar(&o.ho.Confirm, "confirm", 5, "samples re-measured on a subject cell over its band before its verdict (0: none)")
	fs.Float64Var(&o.ho.Alpha, "alpha", judge.DefaultAlpha, "significance level a regression needs, above 0 and below 0.5 (one-sided Mann–Whitney U against the baseline's samples)")
	fs.BoolVar(&o.ho.Strict, "strict", false, "an inconclusive bench fails the gate (exit 1)")
	fs.BoolVar(&o.ho.GateAnyMachine, "gate-any-machine", false, "gate times on baselines recorded on another machine (CPU, CPUs, privilege or cgroup version differ) or on none (a file that records no machine, like the seed's)")
	fs.BoolVar(&o.jsonOut, "json", false, "print only the JSON report on stdout")
	fs.BoolVar(&o.html, "html", false, "also write the HTML page (halebench report) next to the JSON report")
	fs.StringVar(&o.ho.Baselines, "baselines", "", "baselines file (default <suite>/baselines.json)")
	fs.StringVar(&o.ho.ResultsDir, "results", "results", "folder for the JSON reports")
	fs.BoolVar(&o.ho.RequireSubject, "require-subject", false, "exit 2 before measuring when the subject's toolchain is unavailable, instead of warning (in CI, CI=true, the run exits 3 after measuring the rest)")
	fs.BoolVar(&o.ho.Unprivileged, "unprivileged", false, "run containers without privilege: no per-sample memory peak (said in the report)")
	fs.StringVar(&o.junit, "junit", "", "also write the subject's benches as JUnit XML to `FILE` (a regression or failure is a failure, what was not judged is skipped)")
	fs.StringVar(&o.summary, "summary", "", "also append a Markdown step summary (the verdict, what needs attention, the grid) to `FILE`; $GITHUB_STEP_SUMMARY, when set, gets it too")
	fs.DurationVar(&o.ho.Timeout, "timeout", 120*time.Second, "per-sample timeout")
	fs.Var((*termtext.SizeValue)(&o.ho.MemLimit), "memory", "per-sample memory limit as a `SIZE` (e.g. 512m, 4g); over it a sample is oom")
}

func runRun(ctx context.Context, args []string) error {
	var o runOptions
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	o.addFlags(fs)
	if _, err := parseN(fs, args, strings.Replace(runHelp, "\nFlags:\n", countHelp+shardHelp+"Flags:\n", 1), 0, ""); err != nil {
		return err
	}
	log, live, err := o.out.log("run")
	if err != nil {
		return err
	}
	if o.ho.Images, err = o.imageOptions("run"); err != nil {
		return err
	}
	ci := render.Targets(o.junit, o.summary, os.Getenv("GITHUB_STEP_SUMMARY"))
	if err := ci.Check(); err != nil {
		return badInput("run", err)
	}
	o.ho.Suite, o.ho.Langs, o.ho.Subject = o.suite, o.langs, o.subject
	o.ho.Log, o.ho.Live, o.ho.OutCap = log, live, 1<<20
	o.ho.CountNoCacheSim, o.ho.ShardCosts = !o.countCacheSim, o.shard.Costs
	o.ho.FailUnmeasured = judge.InCI(os.Getenv)
	if o.ho.Shard, err = o.shard.Resolve(os.Getenv, log); err != nil {
		return badInput("run", err)
	}
	plan, err := harness.Prepare(o.ho)
	if err != nil {
		return badInput("run", err)
	}
	reports.GoTo(o.ho.ResultsDir)
	eng, err := dial(ctx)
	if err != nil {
		return err
	}
	defer eng.Close()
	res, err := harness.OnEngine(ctx, eng, plan)
	if res == nil || res.Report == nil {
		return err
	}
	// On one terminal the images step has just said why a toolchain is
	// missing; a grid bound for a file or a pipe says it again.
	reasonSaid := termtext.IsTerminal(os.Stdout) && termtext.IsTerminal(os.Stderr)
	render.RunView{JSON: o.jsonOut, HTML: o.html, ReasonSaid: reasonSaid}.Show(os.Stdout, log, res.Report, res.ReportPath)
	return ci.Finish(res.Report, err, stderr)
}
