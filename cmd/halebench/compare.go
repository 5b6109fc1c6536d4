package main

import (
	"context"
	"flag"
	"os"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/render"
)

const compareHelp = `Usage: halebench compare [flags] OLD.json NEW.json

Sets two stored run reports side by side, bench by bench, as benchstat does:
the old and new medians of one language (the new report's subject by
default), the change, a two-sided Mann–Whitney p-value over the stored
samples, and a verdict (slower, faster, or ~ where the change is not
significant). --metric=NAME compares another metric the samples carry
(memory: higher, lower or ~) instead of time; the count lane's instructions
are set beside every row where both reports counted. Needs no engine. Warns
when the reports come from different hosts. An ab result or an xproc
report is refused (exit 2): compare takes run reports.

Flags:
`

func runCompare(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	lang := fs.String("lang", "", "the language to compare (default: the new report's subject)")
	alpha := fs.Float64("alpha", 0.05, "significance level a change must reach to be shown")
	jsonOut := fs.Bool("json", false, "print the table as JSON")
	metricName := fs.String("metric", "time", "the metric to compare: a sampled one of the registry ("+judge.SampledNames()+")")
	files, err := parseN(fs, args, compareHelp, 2, "two report files, OLD.json NEW.json")
	if err != nil {
		return err
	}
	t, err := render.CompareFiles(files[0], files[1], *lang, *metricName, *alpha)
	if err != nil {
		return badInput("compare", err)
	}
	if *jsonOut {
		return t.JSON(os.Stdout)
	}
	t.Text(os.Stdout)
	return nil
}
