package main

import (
	"context"
	"flag"
	"os"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/render"
)

const compareHelp = `Usage: halebench compare [flags] OLD.json NEW.json

Sets two stored run reports (or two ab results, or two xproc reports) side
by side, bench by bench, as benchstat does: the old and new medians of one
language (the new report's subject by default), the change, a two-sided Mann–Whitney p-value over the stored
samples, and a verdict (slower, faster, or ~ where the change is not
significant; marked ¹ where the samples are too few for the test to reach
p < --alpha at all, with the least count a side that could). A geomean row
sums up the benches both reports have figures of and names those left out.
A row without a comparison says why: only in the old report, only in the
new report, in neither report (the bench is, the language is not), or no
samples (the cells' statuses). --metric=NAME compares another metric the
samples carry (memory: higher, lower or ~) instead of time; the count
lane's instructions are set beside every row where both reports counted.
Needs no engine. The table goes to stdout (--json: a halebench-compare/2
document); warnings (different hosts, the same sources, a language only
one report holds) go to stderr.

Two ab results compare by each bench's ratio B/A (old, new, the change;
the test over the rounds' stored log-ratios ln(B/A): slower where B lost
ground against A), of the metric both results were on (ab --metric), which
--metric must name; two xproc reports by each variant's pair, the reader's
median time over the stored runs (time only; no --lang).

Exit status: 0 the table was printed; 1 with --fail-on-slower when a row is
significantly slower (higher, for --metric=memory); 2 bad input: a file
that is no stored document, two documents of different kinds (both named),
a --lang neither document holds (the error names those they hold), an
unknown --metric, --alpha outside (0, 1).

Flags:
`

func runCompare(_ context.Context, args []string) error {
	fs := flag.NewFlagSet("compare", flag.ContinueOnError)
	lang := fs.String("lang", "", "the language to compare (default: the new report's subject)")
	alpha := fs.Float64("alpha", 0.05, "significance level a change must reach to be shown")
	jsonOut := fs.Bool("json", false, "print the table as JSON")
	metricName := fs.String("metric", "time", "the metric to compare: a sampled one of the registry ("+judge.SampledNames()+")")
	failOnSlower := fs.Bool("fail-on-slower", false, "exit 1 when a bench is significantly slower (higher, for another metric than time) in NEW")
	files, err := parseN(fs, args, compareHelp, 2, "two report files, OLD.json NEW.json")
	if err != nil {
		return err
	}
	t, err := render.CompareFiles(files[0], files[1], *lang, *metricName, *alpha)
	if err != nil {
		return badInput("compare", err)
	}
	return t.Give(os.Stdout, stderr, *jsonOut, *failOnSlower)
}
