package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/hale-lang/halebench/orchestrator/harness"
	"github.com/hale-lang/halebench/orchestrator/render"
	"github.com/hale-lang/halebench/orchestrator/report"
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
--strict, was inconclusive), 2 the shards could not be merged.

Flags:
`

// mergeOptions are merge's outputs beyond stdout.
type mergeOptions struct {
	jsonOut                   bool
	out, html, junit, summary string
}

func runMerge(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	var o mergeOptions
	fs.BoolVar(&o.jsonOut, "json", false, "print only the merged JSON report on stdout")
	fs.StringVar(&o.out, "o", "", "also write the merged JSON report to `FILE`")
	fs.StringVar(&o.html, "html", "", "also write the merged report's HTML page to `FILE`")
	fs.StringVar(&o.junit, "junit", "", "also write the subject's benches as JUnit XML to `FILE`")
	fs.StringVar(&o.summary, "summary", "", "also append a Markdown step summary to `FILE`; $GITHUB_STEP_SUMMARY, when set, gets it too")
	files, err := parse(fs, args, mergeHelp)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return badInput("merge", errors.New("merge: give the shards' files (each shard's results/run-*.json, ab --json result or results/xproc-*.json)"))
	}
	m, err := result.Files(files, time.Now().UTC().Format(time.RFC3339Nano))
	if err != nil {
		return badInput("merge", fmt.Errorf("merge: %w", err))
	}
	ci := render.Targets(o.junit, o.summary, os.Getenv("GITHUB_STEP_SUMMARY"))
	if err := o.check(m.Kind, ci); err != nil {
		return badInput("merge", err)
	}
	result.Parts(stderr, m)
	if err := o.write(m); err != nil {
		return err
	}
	if o.jsonOut {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(m.Value()); err != nil {
			return err
		}
	} else {
		result.Text(os.Stdout, m)
	}
	switch m.Kind {
	case result.Run:
		return ci.Finish(m.Run, harness.GateError(m.Run.Status, m.Run.Gate.Strict), stderr)
	case result.AB:
		return o.abSummary(m.AB)
	}
	return nil
}

// check refuses the outputs a kind has no form for, before any is written.
func (o mergeOptions) check(k result.Kind, ci render.Outputs) error {
	switch {
	case k == result.Run:
		return ci.Check()
	case k == result.AB && o.junit != "":
		return errors.New("merge: --junit writes a run's benches; ab shards have no JUnit form (use --summary for the Markdown table)")
	case k == result.Xproc:
		for _, f := range []struct{ flag, v string }{{"--junit", o.junit}, {"--html", o.html}, {"--summary", o.summary}} {
			if f.v != "" {
				return fmt.Errorf("merge: %s writes a run's or an ab's outputs; an xproc report has its two tables and its JSON (-o)", f.flag)
			}
		}
	}
	return nil
}

// write writes the merged document's files that were asked for: its JSON
// (-o), its HTML page (a run's or an ab's).
func (o mergeOptions) write(m *result.Doc) error {
	if o.out != "" {
		if err := report.WriteFile(o.out, m.Value()); err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		word := "report"
		if m.Kind == result.AB {
			word = "result"
		}
		fmt.Fprintf(stderr, "%s: %s\n", word, o.out)
	}
	if o.html == "" {
		return nil
	}
	var err error
	switch m.Kind {
	case result.Run:
		name := o.out
		if name == "" {
			name = "merged report"
		}
		err = render.WriteFile(o.html, []*render.Run{render.RunOf(name, m.Run)})
	case result.AB:
		err = report.AtomicWrite(o.html, 0o644, func(w io.Writer) error { return report.HTML(w, m.AB) })
	}
	if err != nil {
		return fmt.Errorf("merge: --html=%s: %w", o.html, err)
	}
	if m.Kind == result.Run {
		fmt.Fprintf(stderr, "html: %s\n", o.html)
	}
	return nil
}

// abSummary appends an ab's Markdown table to --summary and to
// $GITHUB_STEP_SUMMARY, when set.
func (o mergeOptions) abSummary(r *report.Result) error {
	for _, path := range []string{o.summary, os.Getenv("GITHUB_STEP_SUMMARY")} {
		if path == "" {
			continue
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return fmt.Errorf("merge: summary %s: %w", path, err)
		}
		report.ABMarkdown(f, r)
		if err := f.Close(); err != nil {
			return fmt.Errorf("merge: summary %s: %w", path, err)
		}
	}
	return nil
}
