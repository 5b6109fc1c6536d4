package judge

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
)

// The strict rule: failures and regressions always fail the gate, what
// needs attention only under --strict, the rest never.
func TestFailsGate(t *testing.T) {
	for _, v := range []outcome.Severity{outcome.Fine, outcome.Absent, outcome.Unjudged, outcome.Attention, outcome.Regresses, outcome.Fails} {
		for _, strict := range []bool{false, true} {
			want := v >= outcome.Regresses || strict && v == outcome.Attention
			if got := v.FailsGate(strict); got != want {
				t.Errorf("%d.FailsGate(%v) = %v, want %v", v, strict, got, want)
			}
		}
	}
	if !outcome.Inconclusive.Severity().FailsGate(true) || outcome.Inconclusive.Severity().FailsGate(false) {
		t.Error("inconclusive must fail the gate under --strict only")
	}
	if outcome.NoBaseline.Severity().FailsGate(true) || outcome.SubjectUnavailable.Severity().FailsGate(true) {
		t.Error("an absent number fails the gate under --strict")
	}
}

func TestMeasured(t *testing.T) {
	for _, s := range []outcome.Status{outcome.OK, outcome.Regression, outcome.MemRegression, outcome.StatusParityMismatch} {
		if !s.Measured() {
			t.Errorf("%s.Measured() = false", s)
		}
	}
	for _, s := range []outcome.Status{"", outcome.Unavailable, outcome.Skipped, outcome.BuildFailed, outcome.Timeout, outcome.Interrupted, outcome.NoBaseline, outcome.Inconclusive} {
		if s.Measured() {
			t.Errorf("%s.Measured() = true", s)
		}
	}
}

// A tally counts every status it is given, what needs a reader first, and
// keeps the worst severity a status had in context.
func TestTally(t *testing.T) {
	var tl Tally
	for _, s := range []outcome.Status{outcome.OK, outcome.SubjectUnavailable, outcome.OK, outcome.Regression, "something_new", outcome.Inconclusive, outcome.OK} {
		tl.Add(s, s.Severity())
	}
	tl.Add(outcome.NoSubjectSource, outcome.Absent)
	tl.Add(outcome.NoSubjectSource, outcome.OfBench(outcome.NoSubjectSource, true))
	var got []string
	for _, c := range tl.Counts() {
		got = append(got, fmt.Sprintf("%d %s", c.N, c.Status))
	}
	want := "2 no_subject_source, 1 regression, 1 inconclusive, 1 something_new, 1 subject_unavailable, 3 ok"
	if strings.Join(got, ", ") != want {
		t.Errorf("tally = %s\nwant    %s", strings.Join(got, ", "), want)
	}
	var empty Tally
	if len(empty.Counts()) != 0 {
		t.Error("an empty tally counts something")
	}
}

// What a run's status means for the CLI: a failure and a regression fail
// the gate always, an inconclusive run only under --strict, ok never.
func TestGateError(t *testing.T) {
	for _, c := range []struct {
		st     outcome.Status
		strict bool
		want   error
	}{
		{outcome.OK, true, nil},
		{outcome.Regression, false, ErrRegression},
		{outcome.MemRegression, false, ErrRegression},
		{outcome.Failed, false, ErrFailed},
		{outcome.Inconclusive, false, nil},
		{outcome.Inconclusive, true, ErrInconclusive},
	} {
		if got := GateError(c.st, c.strict); got != c.want {
			t.Errorf("%s, strict %v: %v, want %v", c.st, c.strict, got, c.want)
		}
	}
}
