package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// A count regression is named as such: on the verdict line with its
// percentage of instructions, in the JUnit failure with the exact delta,
// and the run's flagged_by is a property.
func TestCountRegressionNamed(t *testing.T) {
	d := int64(120000000)
	r := &report.Report{Schema: report.Schema, GeneratedAt: "2026-12-04T00:00:00Z", Status: outcome.Regression, Subject: "c",
		SubjectStatus: "available", FlaggedBy: []string{"instructions"},
		Benches: []*report.Bench{{Name: "fn_modular", Status: outcome.Regression, CountVerdict: outcome.Regression, BaselineElapsedNs: ptr(int64(1)),
			Verdict: "instructions +85.7% over the baseline",
			SubjectResult: &report.Lang{Status: outcome.Regression, Count: &report.CountLane{Verdict: outcome.Regression, Ir: 260000051,
				Baseline: 140000051, Delta: &d, Band: 0.005, Reason: "instructions +85.7% over the baseline"}}}}}
	if line := Of(r).Line(); !strings.Contains(line, "fn_modular +85.71% instructions") {
		t.Fatalf("verdict line %q", line)
	}
	var b bytes.Buffer
	if err := JUnit(&b, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`message="regression: instructions 260000051 vs baseline 140000051 (+120000000, +85.71%), band ±0.5%"`, `name="flagged_by" value="instructions"`} {
		if !strings.Contains(b.String(), want) {
			t.Fatalf("JUnit lacks %s:\n%s", want, b.String())
		}
	}
}
