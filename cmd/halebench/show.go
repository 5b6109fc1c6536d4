package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/xprocreport"
)

const showHelp = `Usage: halebench show [flags] REPORT.json

Prints the grid (or, for an xproc report, its two tables) of a report a
previous run wrote, from the samples stored in it. Needs no engine.
--markdown prints the README's snapshot instead: the "Latest snapshot" line
and one Markdown table per category, ready to paste at a release.

Flags:
`

func runShow(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("show", flag.ContinueOnError)
	markdown := fs.Bool("markdown", false, "print the README snapshot (Markdown tables) instead of the grid")
	files, err := parseN(fs, args, showHelp, 1, "one report file (results/run-*.json or results/xproc-*.json)")
	if err != nil {
		return err
	}
	path := files[0]
	data, err := report.ReadBounded(path)
	if err != nil {
		return badInput("show", fmt.Errorf("show: %v", err))
	}
	var head struct {
		Schema string `json:"schema"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return badInput("show", fmt.Errorf("show: %s is not a JSON report: %v", path, err))
	}
	switch head.Schema {
	case report.Schema:
		var r report.Report
		if err := json.Unmarshal(data, &r); err != nil {
			return badInput("show", fmt.Errorf("show: %s: %v", path, err))
		}
		if *markdown {
			report.Markdown(os.Stdout, &r)
		} else {
			report.Grid(os.Stdout, &r)
		}
	case xprocreport.Schema:
		if *markdown {
			return badInput("show", fmt.Errorf("show: %s is an xproc report; --markdown renders run reports (results/run-*.json)", path))
		}
		var r xprocreport.Report
		if err := json.Unmarshal(data, &r); err != nil {
			return badInput("show", fmt.Errorf("show: %s: %v", path, err))
		}
		xprocreport.Tables(os.Stdout, &r)
	default:
		return badInput("show", fmt.Errorf("show: %s has schema %q; this halebench reads %s and %s", path, head.Schema, report.Schema, xprocreport.Schema))
	}
	return nil
}
