package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/render"
	"github.com/hale-lang/halebench/orchestrator/result"
)

const mergeHelp = `Usage: halebench merge [flags] SHARD.json…

Makes one document of the shards of one run, one ab or one xproc (each
shard's stored file, e.g. each CI job's artifact), whichever kind they are:
one path reads them (bounded, no symlink) and joins them by their kind's
rule. Needs no engine. Shards of two kinds are refused.

The shards of one run (run --shard=K/N, results/run-*.json) make one
report: the grid (or --json), one verdict and exit code as run gives them,
and the CI outputs. Each bench is as its shard measured and judged it —
counts exactly, time verdicts as the shard's own machine decided — and each
shard's host is kept (shard.parts).

It refuses (exit 2), naming the report and why: shards of different suites,
sources or partitions, different subject builds or images, different
settings, a bench in two shards, a shard missing or given twice, a file that
is not a shard (a run without --shard, a merged report, an interrupted or
--update-baselines run) or not a report.

The shards of one ab (ab --shard=K/N, results/ab-*.json) merge
the same way into one ab result: each bench's paired samples, ratio B/A,
interval and verdict as its shard measured them; the grid, or --json, -o,
--html and --summary (the Markdown table); --junit is run's. It refuses
shards of other sides, subject builds, images or settings (threshold,
looks), and the same partition faults as for run.

The shards of one xproc (xproc --shard=K/N, each shard's report) merge into
one xproc report: each pair's row once, as the shard whose part owns it
measured it (samples, medians, and ratios against the reference rows that
shard measured on its own machine), named by that shard, with each shard's
host; its two tables as show prints them, or --json, and -o. It refuses
shards of another subject, --iters, variants, sources, partition or images,
and a shard missing or given twice.

Exit codes: 0 fine, 1 the merged run regressed or failed (or, under
--strict, was inconclusive), 2 the shards could not be merged, 3 in CI
(CI=true) the shards did not measure the subject (as run gives it).

Flags:
`

func runMerge(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	o := render.Merged{StepSummary: os.Getenv("GITHUB_STEP_SUMMARY"), FailUnmeasured: judge.InCI(os.Getenv)}
	fs.BoolVar(&o.JSON, "json", false, "print only the merged JSON report on stdout")
	fs.StringVar(&o.Out, "o", "", "also write the merged JSON report to `FILE`")
	fs.StringVar(&o.HTML, "html", "", "also write the merged report's HTML page to `FILE`")
	fs.StringVar(&o.JUnit, "junit", "", "also write the subject's benches as JUnit XML to `FILE`")
	fs.StringVar(&o.Summary, "summary", "", "also append a Markdown step summary to `FILE`; $GITHUB_STEP_SUMMARY, when set, gets it too")
	files, err := parse(fs, args, mergeHelp)
	if err != nil {
		return err
	}
	m, err := result.Files(files, time.Now().UTC().Format(time.RFC3339Nano))
	if err != nil {
		return badInput("merge", fmt.Errorf("merge: %w", err))
	}
	if err := o.Check(m.Kind); err != nil {
		return badInput("merge", err)
	}
	return o.Give(os.Stdout, stderr, m)
}
