package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/hale-lang/halebench/orchestrator/abreport"
	"github.com/hale-lang/halebench/orchestrator/cireport"
	"github.com/hale-lang/halebench/orchestrator/harness"
	"github.com/hale-lang/halebench/orchestrator/htmlreport"
	"github.com/hale-lang/halebench/orchestrator/merge"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/xprocreport"
)

const mergeHelp = `Usage: halebench merge [flags] SHARD.json…

Makes one report of the shards of one run (run --shard=K/N, one report per
shard, e.g. each CI job's artifact): the grid (or --json), one verdict and
exit code as run gives them, and the CI outputs. Each bench is as its shard
measured and judged it — counts exactly, time verdicts as the shard's own
machine decided — and each shard's host is kept (shard.parts). Needs no
engine.

It refuses (exit 2), naming the report and why: shards of different suites,
sources or partitions, different subject builds or images, different
settings, a bench in two shards, a shard missing or given twice, a file that
is not a shard (a run without --shard, a merged report, an interrupted or
--update-baselines run) or not a report.

The shards of one ab (ab --shard=K/N, each shard's --json result) merge
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
--strict, was inconclusive), 2 the shards could not be merged.

Flags:
`

func runMerge(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	jsonOut := fs.Bool("json", false, "print only the merged JSON report on stdout")
	out := fs.String("o", "", "also write the merged JSON report to `FILE`")
	html := fs.String("html", "", "also write the merged report's HTML page to `FILE`")
	junit := fs.String("junit", "", "also write the subject's benches as JUnit XML to `FILE`")
	summary := fs.String("summary", "", "also append a Markdown step summary to `FILE`; $GITHUB_STEP_SUMMARY, when set, gets it too")
	files, err := parse(fs, args, mergeHelp)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return badInput("merge", errors.New("merge: give the shards' reports (each shard's results/run-*.json)"))
	}
	switch schema, _ := merge.Schema(files[0]); schema {
	case abreport.Schema:
		return mergeAB(files, *jsonOut, *out, *html, *junit, *summary)
	case xprocreport.Schema:
		return mergeXproc(files, *jsonOut, *out, *html, *junit, *summary)
	}
	ci := cireport.Targets(*junit, *summary, os.Getenv("GITHUB_STEP_SUMMARY"))
	if err := ci.Check(); err != nil {
		return badInput("merge", err)
	}
	shards, err := readShards(files, merge.ReadFile)
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	r, err := merge.Reports(shards, time.Now().UTC().Format(time.RFC3339Nano))
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	for _, p := range r.Shard.Parts {
		fmt.Fprintf(stderr, "shard %d/%d: %s, %d benches on %s, count cost %.1f s (%s)\n", p.Index, r.Shard.Total, p.Status, len(p.Benches), p.Host.Hostname, p.CountCostSeconds, p.File)
	}
	if err := writeMerged(r, *out, *html); err != nil {
		return err
	}
	if *jsonOut {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		enc.Encode(r)
	} else {
		report.Grid(os.Stdout, r)
	}
	return ciResults(ci, r, harness.GateError(r.Status, r.Gate.Strict))
}

// writeMerged writes the merged report's files that were asked for: its
// JSON, its HTML page.
func writeMerged(r *report.Report, out, html string) error {
	if out != "" {
		if err := report.WriteFile(out, r); err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		fmt.Fprintf(stderr, "report: %s\n", out)
	}
	if html != "" {
		name := out
		if name == "" {
			name = "merged report"
		}
		if err := htmlreport.WriteFile(html, []*htmlreport.Run{htmlreport.RunOf(name, r)}); err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		fmt.Fprintf(stderr, "html: %s\n", html)
	}
	return nil
}

// readShards reads each of files with read (merge.ReadFile, ReadABFile or
// ReadXprocFile), stopping at the first it refuses.
func readShards[S any](files []string, read func(string) (S, error)) ([]S, error) {
	var shards []S
	for _, f := range files {
		s, err := read(f)
		if err != nil {
			return nil, err
		}
		shards = append(shards, s)
	}
	return shards, nil
}
