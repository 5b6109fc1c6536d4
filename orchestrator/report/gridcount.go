package report

import (
	"fmt"
	"io"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// counted says whether the run counted lang (its grid gets a count
// column beside its times).
func (r *Report) counted(lang string) bool {
	if r.Count == nil {
		return false
	}
	for _, l := range r.Count.Languages {
		if l == lang {
			return true
		}
	}
	return false
}

// CountCell is a language's count on a bench as the grid, the Markdown
// and the HTML page show it: the instructions, the exact change against
// the baseline in percent, and the verdict where it is not plain ok; or
// why there is no count.
func CountCell(res *Lang) string {
	if res == nil || res.Count == nil {
		return "—"
	}
	c := res.Count
	switch c.Verdict {
	case outcome.CountFailed, outcome.NotCounted:
		return string(c.Verdict)
	}
	s := judge.Instructions.Format(int64(c.Ir))
	if c.Delta != nil && c.Baseline > 0 {
		s += fmt.Sprintf(" (%+.2f%%)", 100*float64(*c.Delta)/float64(c.Baseline))
	}
	switch c.Verdict {
	case outcome.Regression:
		s += " REGRESSION"
	case outcome.Improved:
		s += " ↓"
	case outcome.CountUnstable:
		s += fmt.Sprintf(" unstable ±%.3f%%", 100*c.Spread)
	case outcome.Incomparable:
		s += " incomparable"
	}
	return s
}

// FormatCount writes an instruction count as the instructions metric
// does (judge.FormatCount): 140.0M, 800.1k, 3.270G.
func FormatCount(n uint64) string { return judge.FormatCount(n) }

// countVerdicts lists the subject benches whose counts need a reader
// (unstable, failed, incomparable) and the count block's cost.
func countVerdicts(w io.Writer, r *Report) {
	if r.Count == nil {
		return
	}
	fmt.Fprintf(w, "counts: %s, %d runs per cell, %d cells in %.1f s", clean(r.Count.Mode), r.Count.Runs, r.Count.Cells, r.Count.CostSeconds)
	if r.Count.Valgrind != "" {
		fmt.Fprintf(w, ", %s", clean(r.Count.Valgrind))
	}
	if r.Count.NoCacheSim {
		fmt.Fprint(w, ", no cache simulation")
	}
	if n := len(r.Count.OverBudget); n > 0 {
		fmt.Fprintf(w, "; %d benches not counted over --count-budget=%s", n, clean(r.Count.Budget))
	}
	fmt.Fprintln(w)
	for _, b := range r.Benches {
		switch b.CountVerdict {
		case outcome.CountUnstable, outcome.CountFailed, outcome.Incomparable:
			fmt.Fprintf(w, "%-12s %s (%s): %s\n", "COUNT", clean(b.Name), b.CountVerdict, clean(termtext.Headline(b.SubjectResult.Count.Reason, 200)))
		}
	}
}
