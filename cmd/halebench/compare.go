package main

import (
	"context"
	"errors"
	"flag"
	"os"

	"github.com/hale-lang/halebench/orchestrator/compare"
	"github.com/hale-lang/halebench/orchestrator/result"
)

const compareHelp = `Usage: halebench compare [flags] OLD.json NEW.json

Sets two stored run reports side by side, bench by bench, as benchstat does:
the old and new medians of one language (the new report's subject by
default), the change, a two-sided Mann–Whitney p-value over the stored
samples, and a verdict (slower, faster, or ~ where the change is not
significant). Needs no engine. Warns when the reports come from different
hosts.

Flags:
`

func runCompare(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	lang := fs.String("lang", "", "the language to compare (default: the new report's subject)")
	alpha := fs.Float64("alpha", 0.05, "significance level a change must reach to be shown")
	jsonOut := fs.Bool("json", false, "print the table as JSON")
	files, err := parseN(fs, args, compareHelp, 2, "two report files, OLD.json NEW.json")
	if err != nil {
		return err
	}
	if *alpha <= 0 || *alpha >= 1 {
		return badInput("compare", errors.New("compare: --alpha must be between 0 and 1"))
	}
	old, err := result.ReadRun(files[0], "compare")
	if err != nil {
		return badInput("compare", err)
	}
	cur, err := result.ReadRun(files[1], "compare")
	if err != nil {
		return badInput("compare", err)
	}
	t := compare.Reports(old, cur, *lang, *alpha)
	if *jsonOut {
		return t.JSON(os.Stdout)
	}
	t.Text(os.Stdout)
	return nil
}
