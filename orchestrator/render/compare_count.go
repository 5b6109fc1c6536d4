package render

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Counts is one bench's instruction counts in both reports: an exact
// delta, no test needed (a count repeats to the instruction), where both
// cells were counted stably the same way.
type Counts struct {
	Old      uint64   `json:"old_ir"`
	New      uint64   `json:"new_ir"`
	Delta    *int64   `json:"delta_ir,omitempty"`
	DeltaPct *float64 `json:"delta_ir_pct,omitempty"`
	Note     string   `json:"note,omitempty"` // why there is no delta
}

// countsOf compares two cells' count lanes; nil when neither was counted.
func countsOf(o, n *report.Lang) *Counts {
	oc, nc := countLane(o), countLane(n)
	if oc == nil && nc == nil {
		return nil
	}
	c := &Counts{}
	switch {
	case oc == nil || nc == nil:
		c.Note = "counted in one report only"
		return c
	}
	c.Old, c.New = oc.Ir, nc.Ir
	switch {
	case !stable(oc) || !stable(nc):
		c.Note = fmt.Sprintf("no stable count (old %s, new %s)", oc.Verdict, nc.Verdict)
	case oc.Scope != nc.Scope || oc.Target != nc.Target || oc.Valgrind != nc.Valgrind || !wire.IrComparable(oc.Instrument, nc.Instrument):
		c.Note = "counted differently (scope, target, Valgrind or instrument differ)"
	default:
		d := int64(c.New) - int64(c.Old)
		pct := 100 * float64(d) / float64(c.Old)
		c.Delta, c.DeltaPct = &d, &pct
	}
	return c
}

func countLane(l *report.Lang) *report.CountLane {
	if l == nil {
		return nil
	}
	return l.Count
}

// stable says whether a lane has a count the determinism rule accepts.
func stable(c *report.CountLane) bool {
	switch c.Verdict {
	case outcome.CountFailed, outcome.NotCounted, outcome.CountUnstable:
		return false
	}
	return c.Ir > 0
}

// countText writes the instruction deltas, when any bench was counted.
func (t Table) countText(w io.Writer) {
	any := false
	for _, r := range t.Rows {
		any = any || r.Counts != nil
	}
	if !any {
		return
	}
	c := termtext.Clean
	fmt.Fprintln(w, "\ninstructions (exact; counts repeat to the instruction, so no p-value):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "bench\told\tnew\tdelta\tdelta %")
	for _, r := range t.Rows {
		switch {
		case r.Counts == nil:
		case r.Counts.Delta == nil:
			fmt.Fprintf(tw, "%s\t—\t—\t—\t%s\n", c(r.Bench), c(r.Counts.Note))
		default:
			fmt.Fprintf(tw, "%s\t%d\t%d\t%+d\t%+.3f%%\n", c(r.Bench), r.Counts.Old, r.Counts.New, *r.Counts.Delta, *r.Counts.DeltaPct)
		}
	}
	tw.Flush()
}
