package main

import (
	"context"
	"flag"
	"os"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/ab"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// abOptions are ab's flags: the sides as chosen, ab.Options and
// ab.Outputs bound directly.
type abOptions struct {
	common
	sides   [2]ab.Choice
	ao      ab.Options
	outputs ab.Outputs
	shard   plan.Asked
	metric  string
}

const abHelp = `Usage: halebench ab [flags]

Measures two versions A and B of the subject on the same benches in one run,
interleaved: each round, every bench not yet resolved takes one sample of A and
one of B, in a seeded random order of benches and of the two sides (RMIT),
both in sampler containers on the same cpuset. Per bench it prints both
medians, the ratio B/A — the Hodges–Lehmann estimate of the paired log-ratios
with its exact Wilcoxon signed-rank interval — the instruction ratio where the
language is counted, and a verdict against --threshold (band [1/(1+t), 1+t]):
  slower      the whole interval above 1 and the estimate ≥ 1+t
  faster      the mirror
  same        the interval inside the band
  unresolved  the rounds or the budget ran out first
  missing     the bench is absent, or did not build or run, on a side
Rounds go on until every bench is resolved (after --min-rounds) or --max-rounds
/ --budget ends them; 95 % confidence is split over the looks (Bonferroni).

A side is a suite tree and a subject build: --a-suite/--b-suite (default
--suite), and for hale one of --a-ref/--b-ref (a tag, branch or commit id of --hale-git),
--a-src/--b-src (a hale tree) or --a-image/--b-image (an image with hale on
PATH); a side without one takes the common --hale-* flags. A equal to B is an
A/A, said. An unknown ref, or a side whose images cannot be made: exit 2; a
side whose subject toolchain cannot be had (its clone or build failed): exit 3.

--metric=NAME puts the verdict on another metric of the registry (default time):
a sampled one (memory) is paired round by round as time is; instructions are
the count lane's, each side's counted runs, their exact ratio held to the band.
The result names its metric and unit; its medians are that metric's.

--lang lists the languages compared (default: the subject only); --bench,
--subject, --quiet are run's.

--shard=K/N (or auto, with --shards and --shard-costs as for run) compares
part K of N of the benches: run's partition — a bench never split, its
languages and both sides together, so each paired ratio is whole — balanced
by an earlier run report's times (--shard-costs) or else by cells; the
result's shard field names the partition and this part.

Output: the grid on stdout, or --json, or --markdown (release notes);
--html=FILE also writes a page with a forest plot. The result (the JSON
--json prints) is also stored as results/ab-<UTC stamp>-<id>.json (--results),
which show prints and merge joins. Exit 1 with --fail-on-slower
when a bench is slower; 2 the run could not be made (--threshold must be above
0 and below 1, --budget and --warmup not negative); 3 the subject was not
measured; 130 interrupted.

Flags:
`

func (o *abOptions) addFlags(fs *flag.FlagSet) {
	o.ao.MemLimit = 4 << 30
	o.common.addFlags(fs)
	for i, x := range []string{"a", "b"} {
		s, X := &o.sides[i], strings.ToUpper(x)
		fs.StringVar(&s.Suite, x+"-suite", "", "side "+X+"'s suite folder (holding benches/ or the seed's micro/ and app/; default --suite)")
		fs.StringVar(&s.Ref, x+"-ref", "", "side "+X+"'s hale: this tag, branch or commit id of --hale-git")
		fs.StringVar(&s.Src, x+"-src", "", "side "+X+"'s hale: this hale source tree")
		fs.StringVar(&s.Image, x+"-image", "", "side "+X+"'s hale: this local `IMAGE` with hale on PATH")
	}
	set := &o.ao.Settings
	fs.StringVar(&o.ao.Bench, "bench", "", "compare only these benches (a comma-separated list)")
	fs.StringVar(&o.metric, "metric", "time", "the `METRIC` the verdict is on: any of the registry's ("+strings.Join(judge.Names(), ", ")+"); instructions from the count lane")
	fs.Float64Var(&set.Threshold, "threshold", 0.02, "the band: a change under this `FRACTION` is same (0.02 is 2 %)")
	fs.IntVar(&set.MinRounds, "min-rounds", 6, "rounds before any bench may be resolved")
	fs.IntVar(&set.MaxRounds, "max-rounds", 60, "rounds at most")
	fs.DurationVar(&set.Budget, "budget", 0, "stop starting rounds after this long (0: no budget)")
	fs.Int64Var(&set.Seed, "seed", 0, "seed of the rounds' order (0: a new one, printed)")
	fs.IntVar(&set.Warmup, "warmup", 1, "discarded runs of each side before its first sample")
	fs.DurationVar(&o.ao.Timeout, "timeout", 120*time.Second, "per-sample timeout")
	fs.Var((*termtext.SizeValue)(&o.ao.MemLimit), "memory", "per-sample memory limit as a `SIZE` (e.g. 512m, 4g)")
	fs.BoolVar(&o.outputs.JSON, "json", false, "print the result as JSON on stdout")
	fs.BoolVar(&o.outputs.Markdown, "markdown", false, "print a Markdown table for release notes on stdout")
	fs.StringVar(&o.outputs.Results, "results", "results", "folder for the JSON result")
	fs.StringVar(&o.outputs.HTML, "html", "", "also write an HTML page with a forest plot to `FILE`")
	fs.BoolVar(&o.outputs.FailOnSlower, "fail-on-slower", false, "exit 1 when a bench is slower in B")
	fs.BoolVar(&o.ao.Unprivileged, "unprivileged", false, "run containers without privilege")
	addShardFlags(fs, &o.shard)
}

func runAB(ctx context.Context, args []string) error {
	var o abOptions
	fs := flag.NewFlagSet("ab", flag.ContinueOnError)
	o.addFlags(fs)
	if _, err := parseN(fs, args, abHelp, 0, ""); err != nil {
		return err
	}
	log, _, err := o.out.log("ab")
	if err != nil {
		return err
	}
	if o.ao.Settings.Metric, err = judge.Named(o.metric); err != nil {
		return badInput("ab", err)
	}
	if o.ao.Images, err = o.imageOptions("ab"); err != nil {
		return err
	}
	if o.ao.Shard, err = o.shard.Resolve(os.Getenv, log); err != nil {
		return badInput("ab", err)
	}
	if o.ao.A, o.ao.B, err = ab.Sides(o.sides, o.suite, o.hale.Git, o.ao.Images, o.hale.Defaulted(o.suite)); err != nil {
		return badInput("ab", err)
	}
	o.ao.Langs, o.ao.Subject, o.ao.ShardCosts = o.langs, o.subject, o.shard.Costs
	o.ao.Log, o.ao.OutCap = log, 1<<20
	if err := o.outputs.Check(); err != nil {
		return badInput("ab", err)
	}
	plan, err := ab.Prepare(o.ao)
	if err != nil {
		return badInput("ab", err)
	}
	eng, err := dial(ctx)
	if err != nil {
		return err
	}
	defer eng.Close()
	res, err := ab.OnEngine(ctx, eng, plan)
	if res == nil {
		return err
	}
	return o.outputs.Give(res, err, os.Stdout, log)
}
