package main

import (
	"context"
	"flag"
	"os"
	"time"

	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/suite"
	"github.com/hale-lang/halebench/orchestrator/xproc"
)

const xprocHelp = `Usage: halebench xproc [flags]

The cross-process shared-memory pair: per language, a reader container and a
producer container sharing one /dev/shm (one IPC namespace), pinned to
different CPUs; the reader times from the first record to the last and checks
the payload. Node's row (†) is two threads in one container: not comparable.
Writes results/xproc-<stamp>.json and prints the seed's two tables. Gates
nothing.

--shard=K/N (or auto, with --shards, as for run) measures part K of N of the
pairs: run's partition over each variant's language pairs (a language's rows
stay together), balanced by their rows; the report's shard field names the
partition and this part. A shard that holds a pair but not the row its
ratios are against (Hale's, the subject's) measures that row too, marked
"reference", so a ratio compares two pairs of one machine; halebench merge
joins the shards' reports into one.

Flags:
`

func runXproc(ctx context.Context, args []string) error {
	var c common
	var variant string
	var jsonOut bool
	var shard plan.Asked
	o := xproc.Options{}
	fs := flag.NewFlagSet("xproc", flag.ContinueOnError)
	c.addFlags(fs)
	fs.IntVar(&o.Iters, "iters", 10, "runs of each pair")
	fs.StringVar(&variant, "variant", "", "small or large (default both)")
	fs.StringVar(&o.ResultsDir, "results", "results", "folder for the JSON report")
	fs.BoolVar(&jsonOut, "json", false, "print only the JSON report on stdout")
	fs.DurationVar(&o.Timeout, "timeout", 2*time.Minute, "per-run timeout of each side")
	addShardFlags(fs, &shard)
	if _, err := parseN(fs, args, xprocHelp, 0, ""); err != nil {
		return err
	}
	langs, err := suite.Parse(c.langs)
	if err != nil {
		return badInput("xproc", err)
	}
	if o.Images, err = c.imageOptions("xproc"); err != nil {
		return err
	}
	if o.Log, _, err = c.out.log("xproc"); err != nil {
		return err
	}
	o.Suite, o.Langs, o.Subject = c.suite, langs, c.subject
	if err := o.Settle(variant, shard, os.Getenv); err != nil {
		return badInput("xproc", err)
	}
	reports.GoTo(o.ResultsDir)
	eng, err := dial(ctx)
	if err != nil {
		return err
	}
	defer eng.Close()
	rep, path, err := xproc.RunOnEngine(ctx, eng, o)
	report.ShowXproc(os.Stdout, o.Log, rep, path, jsonOut)
	return err
}
