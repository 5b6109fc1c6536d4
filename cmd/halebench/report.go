package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/hale-lang/halebench/orchestrator/render"
)

const reportHelp = `Usage: halebench report [flags] REPORT.json [MORE.json …]

Writes one self-contained HTML page (no script, font or network) for the
newest of the reports given: host, subject version, images and digests, the
verdict; failures, regressions, inconclusive verdicts and parity mismatches
first; per category a log-scale ratio chart, per bench a strip plot of every
sample with its memory peak. With several reports (or --history=DIR), each
bench also gets the trend of the subject's median, one point per report.
Given one ab result (results/ab-*.json) or one xproc report alone, it
writes that document's page instead: the same layout and policy, a forest
plot of the ratios B/A or a chart per xproc variant, every figure in a
table. Needs no engine. Without -o the page goes to stdout.

Flags:
`

func runReport(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	out := fs.String("o", "", "write the page to this file (default stdout)")
	history := fs.String("history", "", "also read every run-*.json in this folder (e.g. results/) for the trends")
	var outf outputFlags
	outf.addFlags(fs)
	files, err := parse(fs, args, reportHelp)
	if err != nil {
		return err
	}
	log, _, err := outf.log("report")
	if err != nil {
		return err
	}
	src, err := render.LoadPage(files, *history, log)
	if err != nil {
		return badInput("report", fmt.Errorf("report: %w", err))
	}
	return render.Page(os.Stdout, log, *out, src)
}
