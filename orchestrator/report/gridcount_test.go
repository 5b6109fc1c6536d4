package report

import (
	"os"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
)

// countReport is a run whose subject was counted: one bench ok by counts,
// one a count regression, one unstable, one not counted over the budget.
func countReport() *Report {
	lane := func(v outcome.Status, ir, base uint64, spread float64, reason string) *CountLane {
		c := &CountLane{Verdict: v, Ir: ir, Baseline: base, Spread: spread, Reason: reason, Scope: "region"}
		if base > 0 {
			d := int64(ir) - int64(base)
			c.Delta = &d
		}
		return c
	}
	subj := func(ns int64, st outcome.Status, c *CountLane) *Lang {
		return &Lang{Status: st, ElapsedNsMedian: ns, Comparable: true, Count: c}
	}
	return &Report{
		GeneratedAt: "2026-12-04T00:00:00Z", Subject: "c", SubjectStatus: "available", Iters: 5, Warmup: 1, Status: outcome.Regression,
		FlaggedBy:  []string{"instructions"},
		Settings:   Settings{Languages: []string{"c", "go"}},
		Count:      &Count{Mode: "auto", Languages: []string{"c"}, Runs: 2, Budget: "1m0s", OverBudget: []string{"form_vec_get"}, Valgrind: "valgrind-3.19.0", CostSeconds: 12.5, Cells: 3},
		Categories: []Category{{Name: "overhead", Title: "Overhead microbenches", Benches: []string{"fn_call", "fn_modular", "bus_dispatch", "form_vec_get"}}},
		Benches: []*Bench{
			{Name: "fn_call", Status: outcome.OK, CountVerdict: outcome.OK, SubjectResult: subj(19140000, outcome.OK, lane(outcome.OK, 80000051, 80000050, 0, "")),
				Comparatives: map[string]*Lang{"go": {Status: "ok", ElapsedNsMedian: 20000000, RatioVsSubject: ptr(1.04), Comparable: true}}},
			{Name: "fn_modular", Status: outcome.Regression, CountVerdict: outcome.Regression, FlaggedBy: []string{"instructions"}, BaselineElapsedNs: ptr(int64(1)),
				Verdict:       "instructions +85.7% over the baseline (+120000000: 260000051 vs 140000051), over its 0.5% band",
				SubjectResult: subj(38000000, outcome.Regression, lane(outcome.Regression, 260000051, 140000051, 0, "")), Comparatives: map[string]*Lang{}},
			{Name: "bus_dispatch", Status: outcome.OK, CountVerdict: outcome.CountUnstable,
				SubjectResult: subj(1788882, outcome.OK, lane(outcome.CountUnstable, 3269543, 0, 0.0021, "counted runs differ by 0.2100%")), Comparatives: map[string]*Lang{}},
			{Name: "form_vec_get", Status: outcome.OK, CountVerdict: outcome.NotCounted,
				SubjectResult: subj(800000, outcome.OK, lane(outcome.NotCounted, 0, 0, 0, "over budget")), Comparatives: map[string]*Lang{}},
		},
	}
}

func golden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		os.WriteFile(path, []byte(got), 0o644)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Fatalf("output differs from %s (run with -update if intended):\n%s", path, got)
	}
}

// The grid and the Markdown show a count column beside the counted
// language's times, the exact change in percent, the verdict, and the
// gate names the metric that flagged.
func TestCountGolden(t *testing.T) {
	var g, m strings.Builder
	Grid(&g, countReport())
	golden(t, "testdata/grid-count.golden", g.String())
	Markdown(&m, countReport())
	golden(t, "testdata/snapshot-count.md.golden", m.String())
	if !strings.Contains(g.String(), "flagged by instructions") || !strings.Contains(g.String(), "+85.71%") {
		t.Fatal("the grid does not name the metric or the delta")
	}
}

func TestFormatCount(t *testing.T) {
	for in, want := range map[uint64]string{51: "51", 800055: "800.1k", 140000051: "140.0M", 3269543: "3.270M", 12345678901: "12.35G"} {
		if got := FormatCount(in); got != want {
			t.Errorf("FormatCount(%d) = %q, want %q", in, got, want)
		}
	}
}
