package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/hale-lang/halebench/orchestrator/bisect"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/subject"
	"github.com/hale-lang/halebench/orchestrator/suite"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

const bisectHelp = `Usage: halebench bisect --good=REF --bad=REF --bench=LIST --hale-git=DIR|URL [flags]

Walks hale's first-parent history from --good to --bad (tags, branches or
commit ids of --hale-git), builds each tested commit's hale toolchain and
compares it with the tested commits either side with the A/B machinery.
Names every step: each commit where a bench moved past --threshold against
its parent, by instructions where hale is counted (time beside it, so a
time-only step is said as such), by time where it is not. A commit that
does not build is skipped and said (as git bisect skip); ends that do not
differ, or a step hidden among commits that do not build, are reported,
never guessed.

As a fan-out: --plan prints the commits as a CI matrix; each job runs
  halebench run --hale-git=DIR --hale-ref=<commit> --lang=hale --count=only --bench=LIST
and --from-reports=DIR answers from those reports' exact counts, ordered
by the same first-parent walk (so --hale-git, --good and --bad are given).
Exit 2 on unknown refs, a bad range, an end that does not build (or has no
report), or a report refused.

Flags:
`

// judgeMaker makes the Judge that builds hale per commit and compares two
// builds (newABJudge: with the ab verb's machinery; a fake in tests). It
// returns a close func.
type judgeMaker func(ctx context.Context, c bisect.Config) (bisect.Judge, func(), error)

// newABJudge dials the engine the bisect's steps run on; the func returned
// hangs it up.
func newABJudge(ctx context.Context, cfg bisect.Config) (bisect.Judge, func(), error) {
	eng, err := dial(ctx)
	if err != nil {
		return nil, nil, err
	}
	return bisect.OnEngine(eng, cfg), func() { eng.Close() }, nil
}

type bisectFlags struct {
	good, bad, benches, metric string
	threshold                  float64
	suite                      string
	hale                       subject.Build
	json, list, unprivileged   bool
	plan                       bool
	fromReports                string
	out                        outputFlags
}

func (f *bisectFlags) addFlags(fs *flag.FlagSet) {
	fs.StringVar(&f.good, "good", "", "the good end: a tag, branch or commit id of --hale-git (the older)")
	fs.StringVar(&f.bad, "bad", "", "the bad end: a tag, branch or commit id of --hale-git that descends from --good by first parents")
	fs.StringVar(&f.benches, "bench", "", "comma-separated benches to bisect on (all must move at one commit)")
	fs.StringVar(&f.metric, "metric", "", "what moves: instructions (the count lane's exact ratio), time (the A/B ratio), or unset: instructions where hale is counted, with time beside (a time-only step is named too), time where it is not")
	fs.Float64Var(&f.threshold, "threshold", bisect.DefaultThreshold, "how far a bench must move to count (0.02 = 2 %)")
	fs.StringVar(&f.suite, "suite", ".", "the suite folder holding benches/ (or the seed's micro/ and app/)")
	fs.StringVar(&f.hale.Git, "hale-git", "", "hale's git repository: a local clone (bare or not) or a URL (cloned bare first)")
	fs.StringVar(&f.hale.Vendor, "hale-vendor", "", "crates for an offline hale-cli build (as images --hale-vendor)")
	fs.BoolVar(&f.json, "json", false, "print the result as JSON on stdout")
	fs.BoolVar(&f.unprivileged, "unprivileged", false, "run the comparisons' containers without privilege (as ab --unprivileged): no per-sample memory peak")
	fs.BoolVar(&f.list, "list", false, "print the first-parent commits the bisect would walk (good first, bad last) and stop: no build, no engine")
	fs.BoolVar(&f.plan, "plan", false, "print the commits as a CI matrix, one line of JSON {\"include\":[{commit, short, subject}…]} (GitHub Actions strategy.matrix), and stop: no build, no engine")
	fs.StringVar(&f.fromReports, "from-reports", "", "answer from the count-only run reports in DIR (one per commit, from the --plan's jobs), ordered by the first-parent walk: no build, no engine")
	f.out.addFlags(fs)
}

// check refuses bad input before git or the engine is asked.
func (f *bisectFlags) check() ([]string, error) {
	switch {
	case f.good == "" || f.bad == "":
		return nil, errors.New("bisect needs --good=REF and --bad=REF")
	case f.benches == "":
		return nil, errors.New("bisect needs --bench=LIST (the benches that moved)")
	case f.hale.Git == "":
		return nil, errors.New("bisect needs --hale-git=DIR|URL (hale's repository)")
	case f.metric != "" && walkErr(f.metric) != nil:
		return nil, walkErr(f.metric)
	case (f.list && f.plan) || ((f.list || f.plan) && f.fromReports != ""):
		return nil, errors.New("give one of --list, --plan and --from-reports")
	case f.fromReports != "" && f.metric != "" && f.metric != judge.Instructions.Name:
		return nil, fmt.Errorf("--from-reports answers by instructions (the reports' exact counts): drop --metric=%s", f.metric)
	case !(f.threshold > 0 && f.threshold < 1):
		return nil, fmt.Errorf("--threshold=%g: give a fraction between 0 and 1 (0.02 = 2 %%)", f.threshold)
	}
	suite, err := suite.Load(f.suite)
	if err != nil {
		return nil, err
	}
	list, err := suite.Named(f.benches)
	if err != nil {
		return nil, err
	}
	return list, f.hale.Check()
}

// walkErr says why bisect cannot walk by the metric called name (nil: it
// can).
func walkErr(name string) error {
	_, err := judge.Walked(name, true)
	return err
}

func runBisect(ctx context.Context, args []string, newJudge judgeMaker) error {
	var f bisectFlags
	fs := flag.NewFlagSet("bisect", flag.ContinueOnError)
	addDriverFlag(fs)
	f.addFlags(fs)
	if _, err := parseN(fs, args, bisectHelp, 0, ""); err != nil {
		return err
	}
	benches, err := f.check()
	if err != nil {
		return badInput("bisect", err)
	}
	log, _, err := f.out.log("bisect")
	if err != nil {
		return err
	}
	tmp, err := os.MkdirTemp("", "halebench-bisect-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	repo, err := bisect.MirrorRemote(ctx, f.hale.Git, tmp+"/hale.git")
	if err != nil {
		return badInput("bisect", err)
	}
	commits, err := bisect.FirstParent(ctx, repo, f.good, f.bad)
	if err != nil {
		return badInput("bisect", err)
	}
	fmt.Fprintf(log, "bisect: %d first-parent commits after %s up to %s\n", len(commits)-1, f.good, f.bad)
	if f.list {
		for _, c := range commits {
			fmt.Printf("%s %s\n", termtext.Line(c.ID), termtext.Line(c.Subject))
		}
		return nil
	}
	return f.answer(ctx, repo, commits, benches, log, newJudge)
}

// answer is the plan, the answer from stored reports, or the sequential
// bisect with the ab-backed judge.
func (f *bisectFlags) answer(ctx context.Context, repo string, commits []bisect.Commit, benches []string, log io.Writer, newJudge judgeMaker) error {
	if f.plan {
		return bisect.WritePlan(os.Stdout, log, commits)
	}
	if f.fromReports != "" {
		res, err := bisect.FromReports(ctx, f.fromReports, commits, benches, f.threshold, log)
		return f.print(res, badInput("bisect", err))
	}
	epoch, _, err := image.SourceDateEpoch()
	if err != nil {
		return badInput("bisect", err)
	}
	cfg := bisect.Config{Suite: f.suite, Benches: benches, Metric: f.metric, Threshold: f.threshold, Log: log, Unprivileged: f.unprivileged,
		Hale: subject.Build{Git: repo, Vendor: f.hale.Vendor}, Images: image.Options{SourceDateEpoch: epoch}}
	cfg.Images.Subject = cfg.Hale
	judge, closeJudge, err := newJudge(ctx, cfg)
	if err != nil {
		return err
	}
	defer closeJudge()
	return f.print(bisect.Run(ctx, judge, bisect.Options{Commits: commits, Benches: benches, Threshold: f.threshold, Log: log}))
}

// print is a result on stdout (none when an end is missing: no figures
// worth a table), and err.
func (f *bisectFlags) print(res *bisect.Result, err error) error {
	if res != nil && !errors.Is(err, bisect.ErrEndNotBuilt) {
		if perr := bisect.WriteResult(os.Stdout, res, f.json); perr != nil && err == nil {
			err = perr
		}
	}
	return err
}
