package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
)

func countRun(date string, ir uint64, v outcome.Status) *Run {
	d := int64(ir) - 140000051
	return &Run{Path: date + ".json", Report: &report.Report{
		GeneratedAt: date + "T00:00:00Z", Subject: "c", SubjectStatus: "available", Status: outcome.OK,
		Settings: report.Settings{Languages: []string{"c"}}, Images: map[string]report.Toolchain{"c": {Version: "gcc 12.2.0"}},
		Count:      &report.Count{Mode: "auto", Languages: []string{"c"}, Runs: 2},
		Categories: []report.Category{{Name: "micro", Title: "Micro", Benches: []string{"fn_modular"}}},
		Benches: []*report.Bench{{Name: "fn_modular", Status: v, CountVerdict: v,
			SubjectResult: &report.Lang{Status: outcome.OK, ElapsedNsMedian: 1000, ElapsedNsSamples: []int64{1000}, Comparable: true,
				Count: &report.CountLane{Verdict: v, Ir: ir, Baseline: 140000051, Delta: &d, Band: 0.005, Scope: "region"}},
			Comparatives: map[string]*report.Lang{}}},
	}}
}

// The page shows a count column (the subject's instructions, the exact
// change, the verdict) and, across reports, a count trend.
func TestPageShowsCounts(t *testing.T) {
	var out bytes.Buffer
	runs := []*Run{countRun("2026-12-01", 140000051, outcome.OK), countRun("2026-12-02", 260000051, outcome.Regression)}
	if err := Render(&out, runs); err != nil {
		t.Fatal(err)
	}
	page := out.String()
	for _, want := range []string{"C instructions", "260.0M (&#43;85.71%) REGRESSION", "the subject&#39;s instructions across reports", "140.0M"} {
		if !strings.Contains(page, want) {
			t.Errorf("the page lacks %q", want)
		}
	}
	out.Reset()
	plain := countRun("2026-12-01", 1, outcome.OK)
	plain.Report.Count = nil
	if err := Render(&out, []*Run{plain}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "instructions") {
		t.Error("a run without counts shows a count column")
	}
}
