package ab

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// ab --metric=instructions judges each pair on its counts: equal times,
// twice the instructions on B is slower, with the counts as the medians
// and their exact ratio; a pair the count lane did not count is missing.
// The result names its metric and unit, its grid says them and writes the
// medians in the metric's format, and its JSON reads back the same. The
// counts are round 1's, so round 1 is the only one.
func TestCompareByInstructions(t *testing.T) {
	f := &fakeSampler{rng: rand.New(rand.NewSource(5)), times: map[string]float64{"a": 1e6, "b": 1e6, "c": 1e6, "d": 1e6},
		irs: map[string]uint64{"a": 1_000_000, "b": 2_000_000}}
	res := Compare(context.Background(), f, []Pair{pair("counted", "a", "b"), pair("uncounted", "c", "d")}, Settings{Seed: 5, Metric: judge.Instructions})
	if res.Metric != "instructions" || res.Unit != judge.Instructions.Unit {
		t.Fatalf("result names metric %q unit %q", res.Metric, res.Unit)
	}
	// the counts come from round 1: no later round is run for them
	if res.Rounds != 1 || len(f.calls) != 4 {
		t.Errorf("%d rounds, %d jobs sent (stopped by %s), want 1 round of both pairs' two sides", res.Rounds, len(f.calls), res.StoppedBy)
	}
	by := map[string]Bench{}
	for _, b := range res.Benches {
		by[b.Name] = b
	}
	if b := by["counted"]; b.Verdict != outcome.Slower || b.Ratio != 2 || b.MedianA != 1_000_000 || b.MedianB != 2_000_000 || b.SamplesA != nil {
		t.Errorf("counted: %+v", b)
	}
	if b := by["uncounted"]; b.Verdict != outcome.Missing || !strings.Contains(b.Detail, "no instructions to compare") {
		t.Errorf("uncounted: %s %q", b.Verdict, b.Detail)
	}
	var grid strings.Builder
	report.ABGrid(&grid, res)
	for _, want := range []string{"metric: instructions (instructions)", judge.Instructions.Format(2_000_000)} {
		if !strings.Contains(grid.String(), want) {
			t.Errorf("grid lacks %q:\n%s", want, grid.String())
		}
	}
	var buf bytes.Buffer
	if err := report.JSON(&buf, res); err != nil {
		t.Fatal(err)
	}
	var back report.Result
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	if back.MetricOf() != judge.Instructions || back.Benches[0].MedianB != res.Benches[0].MedianB {
		t.Errorf("read back: metric %s, median B %v", back.Metric, back.Benches[0].MedianB)
	}
}

// A result stored before ab named its metric is time's: its median_a_ns
// and samples_a_ns read as the medians and samples, in ns.
func TestOldResultIsTime(t *testing.T) {
	var r report.Result
	if err := json.Unmarshal([]byte(`{"benches": [{"name": "x", "median_a_ns": 1500000, "median_b_ns": 3000000, "samples_a_ns": [1500000]}]}`), &r); err != nil {
		t.Fatal(err)
	}
	b := r.Benches[0]
	if r.MetricOf() != judge.MetricTime || b.MedianA != 1.5e6 || b.MedianB != 3e6 || len(b.SamplesA) != 1 || r.Figure(b.MedianA) != report.Dur(1.5e6) {
		t.Fatalf("old result: metric %s, %+v", r.MetricOf().Name, b)
	}
}
