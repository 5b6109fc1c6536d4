package main

import (
	"context"
	"errors"
	"flag"
	"os"

	"github.com/hale-lang/halebench/orchestrator/bisect"
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
Exit 2 on unknown refs, a bad range, or a report refused; 3 when an end
does not build (or has no report): the subject was not measured there.

Flags:
`

// newABJudge is bisect's judge on the engine: it dials the engine the
// bisect's steps run on; the func returned hangs it up.
func newABJudge(ctx context.Context, cfg bisect.Config) (bisect.Judge, func(), error) {
	eng, err := dial(ctx)
	if err != nil {
		return nil, nil, err
	}
	return bisect.OnEngine(eng, cfg), func() { eng.Close() }, nil
}

// addBisectFlags gives bisect its flags, into the request r.
func addBisectFlags(fs *flag.FlagSet, r *bisect.Request, out *outputFlags) {
	fs.StringVar(&r.Good, "good", "", "the good end: a tag, branch or commit id of --hale-git (the older)")
	fs.StringVar(&r.Bad, "bad", "", "the bad end: a tag, branch or commit id of --hale-git that descends from --good by first parents")
	fs.StringVar(&r.Benches, "bench", "", "comma-separated benches to bisect on (all must move at one commit)")
	fs.StringVar(&r.Metric, "metric", "", "what moves: instructions (the count lane's exact ratio), time (the A/B ratio), or unset: instructions where hale is counted, with time beside (a time-only step is named too), time where it is not")
	fs.Float64Var(&r.Threshold, "threshold", bisect.DefaultThreshold, "how far a bench must move to count (0.02 = 2 %)")
	fs.StringVar(&r.Suite, "suite", ".", "the suite folder holding benches/ (or the seed's micro/ and app/)")
	fs.StringVar(&r.Hale.Git, "hale-git", "", "hale's git repository: a local clone (bare or not) or a URL (cloned bare first)")
	fs.StringVar(&r.Hale.Vendor, "hale-vendor", "", "crates for an offline hale-cli build (as images --hale-vendor)")
	fs.BoolVar(&r.JSON, "json", false, "print the result as JSON on stdout")
	fs.BoolVar(&r.Unprivileged, "unprivileged", false, "run the comparisons' containers without privilege (as ab --unprivileged): no per-sample memory peak")
	fs.BoolVar(&r.List, "list", false, "print the first-parent commits the bisect would walk (good first, bad last) and stop: no build, no engine")
	fs.BoolVar(&r.Plan, "plan", false, "print the commits as a CI matrix, one line of JSON {\"include\":[{commit, short, subject}…]} (GitHub Actions strategy.matrix), and stop: no build, no engine")
	fs.StringVar(&r.FromReports, "from-reports", "", "answer from the count-only run reports in DIR (one per commit, from the --plan's jobs), ordered by the first-parent walk: no build, no engine")
	out.addFlags(fs)
}

func runBisect(ctx context.Context, args []string, newJudge bisect.NewJudge) error {
	var r bisect.Request
	var out outputFlags
	fs := flag.NewFlagSet("bisect", flag.ContinueOnError)
	addDriverFlag(fs)
	addBisectFlags(fs, &r, &out)
	if _, err := parseN(fs, args, bisectHelp, 0, ""); err != nil {
		return err
	}
	benches, err := r.Check()
	if err != nil {
		return badInput("bisect", err)
	}
	log, _, err := out.log("bisect")
	if err != nil {
		return err
	}
	err = r.Answer(ctx, benches, os.Stdout, log, newJudge)
	if errors.Is(err, bisect.ErrInput) {
		return badInput("bisect", err)
	}
	return err
}
