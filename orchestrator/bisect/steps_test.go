package bisect

import (
	"context"
	"strings"
	"testing"
)

func runFake(t *testing.T, f *fakeJudge, n int, benches ...string) *Result {
	t.Helper()
	r, err := Run(context.Background(), f, Options{Commits: commits(n), Benches: benches})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func changeIDs(r *Result) string {
	var out []string
	for _, c := range r.Changes {
		out = append(out, c.Commit)
	}
	return strings.Join(out, " ")
}

// One step: the same answer as the one-move search gave, named as the one
// change, against its parent.
func TestStepsSingle(t *testing.T) {
	f := &fakeJudge{levels: map[string][]float64{"fn": step(9, 5, 1, 1.3)}}
	r := runFake(t, f, 9, "fn")
	if r.Outcome != Found || r.First.ID != "c5" || changeIDs(r) != "c5" {
		t.Fatalf("%s %s: %s", r.Outcome, changeIDs(r), r.Detail)
	}
	c := r.Changes[0]
	if c.Against != "c4" || !c.AgainstParent || c.Bench != "fn" || c.Ratio < 1.29 || c.Interval[0] >= c.Ratio || c.TimeOnly || c.Among != nil {
		t.Errorf("change %+v", c)
	}
	checkSteps(t, r, f, 0)
}

// hale#522's shape: a time-only step (equal instructions, ×1.125 time) at
// c3, then the instructions step (×1.86) at c6. Both are named, the first
// said time only, with instructions the metric and time beside; the answer
// (first) is the instructions step, as --metric=instructions would give.
func TestStepsTimeOnlyThenInstructions(t *testing.T) {
	instr := step(9, 6, 100, 186)
	times := []float64{1, 1, 1, 1.125, 1.125, 1.125, 1.62, 1.62, 1.62}
	f := &fakeJudge{levels: map[string][]float64{"fn": instr}, times: map[string][]float64{"fn": times}}
	r := runFake(t, f, 9, "fn")
	if r.Outcome != Found || r.First.ID != "c6" || changeIDs(r) != "c3 c6" {
		t.Fatalf("%s %s: %s", r.Outcome, changeIDs(r), r.Detail)
	}
	first, second := r.Changes[0], r.Changes[1]
	if !first.TimeOnly || first.Ratio != 1 || first.Metric != "instructions" || first.TimeRatio != 1.125 || first.Against != "c2" {
		t.Errorf("time-only step %+v", first)
	}
	if second.TimeOnly || second.Ratio != 1.86 || second.Interval != [2]float64{1.86, 1.86} || second.TimeRatio < 1.4399 || second.TimeRatio > 1.4401 || !second.AgainstParent {
		t.Errorf("instructions step %+v", second)
	}
	if !strings.Contains(r.Detail, "c3 fn ×1.000") || !strings.Contains(r.Detail, "(time only)") || !strings.Contains(r.Detail, "c6 fn ×1.860") {
		t.Errorf("detail %q", r.Detail)
	}
	checkSteps(t, r, f, 0)
	// Only a time step: it is the answer.
	f2 := &fakeJudge{levels: map[string][]float64{"fn": step(9, 0, 100, 100)}, times: map[string][]float64{"fn": times}}
	if r2 := runFake(t, f2, 9, "fn"); r2.Outcome != Found || changeIDs(r2) != "c3 c6" || r2.First.ID != "c3" || !r2.Changes[1].TimeOnly {
		t.Errorf("time only: %s %s: %s", r2.Outcome, changeIDs(r2), r2.Detail)
	}
	// Each pair of commits is compared once.
	seen := map[[2]int]bool{}
	for _, p := range f.compared {
		if seen[p] {
			t.Errorf("compared %v twice: %v", p, f.compared)
		}
		seen[p] = true
	}
}

// A skipped commit: the parent of a step did not build, so the step is
// named among the commits since the nearest tested one, said so.
func TestStepsSkipped(t *testing.T) {
	f := &fakeJudge{levels: map[string][]float64{"fn": step(9, 5, 1, 1.3)}, broken: map[int]bool{4: true}}
	r := runFake(t, f, 9, "fn")
	if r.Outcome != AmongSkipped || shorts(r.Range) != "c4 c5" || changeIDs(r) != "c5" {
		t.Fatalf("%s %s %v: %s", r.Outcome, changeIDs(r), r.Range, r.Detail)
	}
	if c := r.Changes[0]; c.AgainstParent || c.Against != "c3" || !strings.Contains(c.Note, "did not build") {
		t.Errorf("change %+v", c)
	}
	checkSteps(t, r, f, 1)
	// A skip away from the step changes nothing.
	f = &fakeJudge{levels: map[string][]float64{"fn": step(9, 6, 1, 1.3)}, broken: map[int]bool{4: true}}
	r = runFake(t, f, 9, "fn")
	if r.Outcome != Found || changeIDs(r) != "c6" || !r.Changes[0].AgainstParent {
		t.Fatalf("%s %s: %s", r.Outcome, changeIDs(r), r.Detail)
	}
	checkSteps(t, r, f, 1)
}

// Equal ends: no search, no change, even if commits between moved.
func TestStepsEndsEqual(t *testing.T) {
	f := &fakeJudge{levels: map[string][]float64{"fn": {1, 1, 1.3, 1.3, 1}}, times: map[string][]float64{"fn": {1, 1, 1, 1, 1}}}
	r := runFake(t, f, 5, "fn")
	if r.Outcome != EndsSame || r.Changes != nil || len(f.built) != 2 {
		t.Fatalf("%s %s built %v", r.Outcome, changeIDs(r), f.built)
	}
}

// A drift below the threshold at every commit: the ends differ, no commit
// is named.
func TestStepsGradual(t *testing.T) {
	f := &fakeJudge{levels: map[string][]float64{"fn": {1, 1.015, 1.03, 1.045, 1.06}}}
	r := runFake(t, f, 5, "fn")
	if r.Outcome != Gradual || r.Changes != nil || r.First != nil {
		t.Fatalf("%s %s: %s", r.Outcome, changeIDs(r), r.Detail)
	}
}
