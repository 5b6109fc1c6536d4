package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/harness"
	"github.com/hale-lang/halebench/orchestrator/render"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

type runOptions struct {
	common
	iters           int
	warmup          int
	bench           string
	noComparative   bool
	updateBaselines bool
	runs            int
	confirm         int
	alpha           float64
	strict          bool
	anyMachine      bool
	jsonOut         bool
	html            bool
	baselines       string
	results         string
	requireSubject  bool
	unprivileged    bool
	junit           string
	summary         string
	timeout         time.Duration
	memory          byteSize
	count           countFlags
	shard           shardFlags
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
130 interrupted.

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
	o.memory = 4 << 30
	o.common.addFlags(fs)
	o.count.addFlags(fs)
	o.shard.addFlags(fs)
	fs.IntVar(&o.iters, "iters", 5, "measured samples per bench and language")
	fs.IntVar(&o.warmup, "warmup", 1, "discarded warm-up runs before the samples")
	fs.StringVar(&o.bench, "bench", "", "run only these benches (a comma-separated list)")
	fs.BoolVar(&o.noComparative, "no-comparative", false, "the subject only, no sibling languages")
	fs.BoolVar(&o.updateBaselines, "update-baselines", false, "record the subject's figures into baselines.json from --runs independent runs (keeps overrides, notes and every unknown key)")
	fs.IntVar(&o.runs, "runs", 0, "independent runs --update-baselines records, each in fresh containers (default 5; 1 makes the band a guess)")
	fs.IntVar(&o.confirm, "confirm", 5, "samples re-measured on a subject cell over its band before its verdict (0: none)")
	fs.Float64Var(&o.alpha, "alpha", 0.01, "significance level a regression needs (one-sided Mann–Whitney U against the baseline's samples)")
	fs.BoolVar(&o.strict, "strict", false, "an inconclusive bench fails the gate (exit 1)")
	fs.BoolVar(&o.anyMachine, "gate-any-machine", false, "gate times on baselines recorded on another machine (CPU, CPUs, privilege or cgroup version differ) or on none (a file that records no machine, like the seed's)")
	fs.BoolVar(&o.jsonOut, "json", false, "print only the JSON report on stdout")
	fs.BoolVar(&o.html, "html", false, "also write the HTML page (halebench report) next to the JSON report")
	fs.StringVar(&o.baselines, "baselines", "", "baselines file (default <suite>/baselines.json)")
	fs.StringVar(&o.results, "results", "results", "folder for the JSON reports")
	fs.BoolVar(&o.requireSubject, "require-subject", false, "exit 2 when the subject's toolchain is unavailable, instead of warning")
	fs.BoolVar(&o.unprivileged, "unprivileged", false, "run containers without privilege: no per-sample memory peak (said in the report)")
	fs.StringVar(&o.junit, "junit", "", "also write the subject's benches as JUnit XML to `FILE` (a regression or failure is a failure, what was not judged is skipped)")
	fs.StringVar(&o.summary, "summary", "", "also append a Markdown step summary (the verdict, what needs attention, the grid) to `FILE`; $GITHUB_STEP_SUMMARY, when set, gets it too")
	fs.DurationVar(&o.timeout, "timeout", 120*time.Second, "per-sample timeout")
	fs.Var(&o.memory, "memory", "per-sample memory limit (e.g. 512m, 4g); over it a sample is `oom`")
}

func runRun(ctx context.Context, args []string) error {
	var o runOptions
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	o.addFlags(fs)
	if _, err := parseN(fs, args, strings.Replace(runHelp, "\nFlags:\n", countHelp+shardHelp+"Flags:\n", 1), 0, ""); err != nil {
		return err
	}
	if o.baselines == "" {
		o.baselines = filepath.Join(o.suite, "baselines.json")
	}
	log, live, err := o.out.log("run")
	if err != nil {
		return err
	}
	imgOpts, err := o.imageOptions("run")
	if err != nil {
		return err
	}
	ci := render.Targets(o.junit, o.summary, os.Getenv("GITHUB_STEP_SUMMARY"))
	if err := ci.Check(); err != nil {
		return badInput("run", err)
	}
	ho := harness.Options{
		Suite: o.suite, Bench: o.bench, Langs: o.langs, Subject: o.subject, NoComparative: o.noComparative,
		Iters: o.iters, Warmup: o.warmup, Timeout: o.timeout, MemLimit: int64(o.memory), OutCap: 1 << 20,
		Baselines: o.baselines, ResultsDir: o.results, UpdateBaselines: o.updateBaselines,
		Runs: o.runs, Confirm: o.confirm, Alpha: o.alpha, Strict: o.strict, GateAnyMachine: o.anyMachine,
		RequireSubject: o.requireSubject, Unprivileged: o.unprivileged, Images: imgOpts, Log: log, Live: live,
	}
	o.count.apply(&ho)
	if err := o.shard.apply(&ho, log); err != nil {
		return badInput("run", err)
	}
	plan, err := harness.Prepare(ho)
	if err != nil {
		return badInput("run", err)
	}
	reports.GoTo(o.results)
	eng, err := dial(ctx)
	if err != nil {
		return err
	}
	defer eng.Close()
	res, err := harness.OnEngine(ctx, eng, plan)
	if res == nil || res.Report == nil {
		return err
	}
	o.print(res, log)
	return ciResults(ci, res.Report, err)
}

// ciResults writes the run's CI outputs and sets its verdict as the last
// line on stderr. A file it could not write is an error of its own when
// the run was fine, and said beside the run's error when not.
func ciResults(ci render.Outputs, r *report.Report, runErr error) error {
	stderr.SayLast("halebench: " + render.Of(r).Line())
	werr := ci.Write(r)
	if werr == nil {
		return runErr
	}
	if runErr == nil {
		return werr
	}
	fmt.Fprintln(stderr, "halebench:", werr)
	return runErr
}

// print puts a run's result on stdout: the grid, or the JSON report.
func (o *runOptions) print(res *harness.Result, log io.Writer) {
	if o.jsonOut {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		enc.Encode(res.Report)
	} else {
		// On one terminal the images step has just said why a toolchain is
		// missing; a grid bound for a file or a pipe says it again.
		report.GridFor(os.Stdout, res.Report, report.GridOptions{ReasonSaid: termtext.IsTerminal(os.Stdout) && termtext.IsTerminal(os.Stderr)})
	}
	if res.ReportPath != "" {
		fmt.Fprintf(log, "report: %s\n", res.ReportPath)
	}
	if o.html && res.ReportPath != "" {
		writeHTMLNextTo(res.ReportPath, res.Report, log)
	}
}
