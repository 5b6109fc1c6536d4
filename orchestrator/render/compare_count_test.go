package render

import (
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
)

func counted(r *report.Report, bench string, v outcome.Status, ir uint64, valgrind string) {
	for _, b := range r.Benches {
		if b.Name == bench {
			b.SubjectResult.Count = &report.CountLane{Verdict: v, Ir: ir, Scope: "region", Target: "x86-64-v3", Valgrind: valgrind}
		}
	}
}

// compare gives the exact instruction delta between two reports, where
// both counted stably the same way, and says why not elsewhere; a report
// without counts prints no count table.
func TestCompareCounts(t *testing.T) {
	s := []int64{100, 101, 102}
	old := rep("X", map[string][]int64{"fn_modular": s, "unstable": s, "other_vg": s, "uncounted": s})
	cur := rep("X", map[string][]int64{"fn_modular": s, "unstable": s, "other_vg": s, "uncounted": s})
	counted(old, "fn_modular", outcome.OK, 140000051, "valgrind-3.19.0")
	counted(cur, "fn_modular", outcome.Regression, 260000051, "valgrind-3.19.0")
	counted(old, "unstable", outcome.OK, 100, "valgrind-3.19.0")
	counted(cur, "unstable", outcome.CountUnstable, 101, "valgrind-3.19.0")
	counted(old, "other_vg", outcome.OK, 100, "valgrind-3.19.0")
	counted(cur, "other_vg", outcome.OK, 100, "valgrind-3.22.0")
	tab := Reports(old, cur, "", nil, 0.05)
	by := map[string]Row{}
	for _, r := range tab.Rows {
		by[r.Bench] = r
	}
	if c := by["fn_modular"].Counts; c == nil || *c.Delta != 120000000 || *c.DeltaPct < 85.7 || *c.DeltaPct > 85.72 {
		t.Fatalf("fn_modular counts %+v", c)
	}
	if c := by["unstable"].Counts; c.Delta != nil || !strings.Contains(c.Note, "count_unstable") {
		t.Fatalf("unstable %+v", c)
	}
	if c := by["other_vg"].Counts; c.Delta != nil || !strings.Contains(c.Note, "Valgrind") {
		t.Fatalf("other valgrind %+v", c)
	}
	if by["uncounted"].Counts != nil {
		t.Fatal("a bench counted in neither report got counts")
	}
	var b strings.Builder
	tab.Text(&b)
	if !strings.Contains(b.String(), "fn_modular  140000051  260000051  +120000000  +85.714%") {
		t.Fatalf("text:\n%s", b.String())
	}
	b.Reset()
	Reports(rep("X", map[string][]int64{"a": s}), rep("X", map[string][]int64{"a": s}), "", nil, 0.05).Text(&b)
	if strings.Contains(b.String(), "instructions") {
		t.Fatal("a count table without counts")
	}
}
