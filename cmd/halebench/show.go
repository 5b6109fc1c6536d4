package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/hale-lang/halebench/orchestrator/result"
)

const showHelp = `Usage: halebench show [flags] REPORT.json

Prints a document a previous run, ab or xproc wrote, from what is stored in
it: a run report's grid, an ab result's comparison grid, an xproc report's
two tables. Needs no engine. --markdown prints Markdown instead: for a run
the README's snapshot (the "Latest snapshot" line and one table per
category, ready to paste at a release), for an ab its release-notes table,
for an xproc its two tables.

Flags:
`

func runShow(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("show", flag.ContinueOnError)
	markdown := fs.Bool("markdown", false, "print Markdown (a run's README snapshot) instead of the grid")
	files, err := parseN(fs, args, showHelp, 1, "one stored file (results/run-*.json, results/ab-*.json or results/xproc-*.json)")
	if err != nil {
		return err
	}
	d, err := result.Read(files[0])
	if err != nil {
		return badInput("show", fmt.Errorf("show: %v", err))
	}
	result.Show(os.Stdout, d, *markdown)
	return nil
}
