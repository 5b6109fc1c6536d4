package render

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// kindText writes the table of two ab results or two xproc reports in the
// shape of the run compare's: a row per bench (ab: the B/A ratios; xproc:
// each variant's pair, the reader's median), the change where it is
// significant, ~ where not, ¹ where the samples are too few, the geomean.
func (t Table) kindText(w io.Writer) {
	c := termtext.Clean
	head := t.Compares
	if t.Lang != "" {
		head += " " + t.Lang
	}
	fmt.Fprintf(w, "%s: old %s on %s\n%s  new %s on %s\n", c(head), c(t.OldRun), c(t.OldHost), strings.Repeat(" ", len(head)), c(t.NewRun), c(t.NewHost))
	switch {
	case t.Compares == "ab" && t.metric != judge.MetricTime:
		fmt.Fprintf(w, "metric: %s (%s)\n", c(t.Metric), c(t.Unit))
		fmt.Fprintf(w, "compared: each bench's ratio B/A of %s (> 1: B higher than A); higher/lower: B lost/gained against A\n", c(t.Metric))
	case t.Compares == "ab":
		fmt.Fprintln(w, "compared: each bench's ratio B/A (> 1: B slower than A); slower/faster: B lost/gained against A")
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "bench\told\tnew\tdelta\tp\tn\tverdict")
	var few []string
	for _, r := range t.Rows {
		old, cur := t.kindCells(r)
		if r.DeltaPct == nil {
			fmt.Fprintf(tw, "%s\t—\t—\t—\t—\t—\t%s\n", c(r.Bench), c(r.Verdict))
			continue
		}
		if r.P == nil {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%+.1f%%\t—\t—\t%s\n", c(r.Bench), old, cur, *r.DeltaPct, c(r.Verdict))
			continue
		}
		delta, verdict := "~", r.Verdict
		if r.Verdict != "~" {
			delta = fmt.Sprintf("%+.1f%%", *r.DeltaPct)
		}
		if r.TooFewSamples {
			verdict += " ¹"
			if size := fmt.Sprintf("%d+%d the smallest p it can give is %.3g", r.OldN, r.NewN, *r.MinP); !slices.Contains(few, size) {
				few = append(few, size)
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\tp=%.3f\t%d+%d\t%s\n", c(r.Bench), old, cur, delta, *r.P, r.OldN, r.NewN, verdict)
	}
	if g := t.Geomean; g != nil && g.Benches > 0 {
		fmt.Fprintf(tw, "geomean\t%s\t%s\t%+.1f%%\n", t.kindFigure(*g.Old), t.kindFigure(*g.New), *g.DeltaPct)
	}
	tw.Flush()
	fmt.Fprintln(w)
	t.kindFoot(w, few)
}

// kindCells are a row's old and new figures: ratios with their
// intervals (ab), or medians (xproc).
func (t Table) kindCells(r Row) (string, string) {
	if q := r.Ratios; q != nil {
		return fmt.Sprintf("%s× [%s, %s]", report.FormatRatio(q.Old), report.FormatRatio(q.OldLow), report.FormatRatio(q.OldHigh)),
			fmt.Sprintf("%s× [%s, %s]", report.FormatRatio(q.New), report.FormatRatio(q.NewLow), report.FormatRatio(q.NewHigh))
	}
	return report.FormatNs(r.Old), report.FormatNs(r.New)
}

func (t Table) kindFigure(v float64) string {
	if t.Compares == "ab" {
		return report.FormatRatio(v) + "×"
	}
	return report.FormatNs(int64(math.Round(v)))
}

// kindFoot says what the marks and the test are (foot), over what an ab
// or xproc table's test runs.
func (t Table) kindFoot(w io.Writer, few []string) {
	what := "the stored runs' times"
	if t.Compares == "ab" {
		what = "the stored rounds' log-ratios ln(B/A)"
	}
	t.foot(w, few, "rows both documents", what)
}
