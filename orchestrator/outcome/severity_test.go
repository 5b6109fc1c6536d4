package outcome

import "testing"

func TestSeverity(t *testing.T) {
	want := map[Status]Severity{
		OK: Fine, Improved: Fine, Available: Fine,
		"": Absent, NoBaseline: Absent, SubjectUnavailable: Absent, NoSubjectSource: Absent, Unavailable: Absent, Skipped: Absent,
		NotCounted: Absent, Incomparable: Unjudged, CountUnstable: Attention, CountFailed: Attention,
		IncomparableMachine: Unjudged,
		Inconclusive:        Attention, Interrupted: Attention, "something_new": Attention,
		Regression: Regresses, MemRegression: Regresses,
		BuildFailed: Fails, RunFailed: Fails, Timeout: Fails, OOM: Fails, NoElapsed: Fails, BadOutput: Fails,
		StatusParityMismatch: Fails, ProducerFailed: Fails, ReaderFailed: Fails, BadChecksum: Fails, NoBench: Fails, Failed: Fails,
	}
	for s, v := range want {
		if got := s.Severity(); got != v {
			t.Errorf("%q.Severity() = %d, want %d", s, got, v)
		}
	}
}

// A bench the baseline holds whose subject program is gone fails the run;
// without a baseline it is only absent.
func TestOfBench(t *testing.T) {
	if OfBench(NoSubjectSource, true) != Fails || OfBench(NoSubjectSource, false) != Absent {
		t.Fatalf("no_subject_source: with baseline %d, without %d", OfBench(NoSubjectSource, true), OfBench(NoSubjectSource, false))
	}
	if OfBench(OK, true) != Fine || OfBench(Regression, false) != Regresses {
		t.Fatal("OfBench changes statuses other than no_subject_source")
	}
}

// Rank puts what needs a reader first and the rest in a fixed order.
func TestRankAndQuiet(t *testing.T) {
	order := []Severity{Fails, Regresses, Attention, Unjudged, Absent, Fine}
	for i := 1; i < len(order); i++ {
		if order[i-1].Rank() >= order[i].Rank() {
			t.Errorf("rank of %d (%d) not before %d (%d)", order[i-1], order[i-1].Rank(), order[i], order[i].Rank())
		}
	}
	for _, v := range order {
		if v.Quiet() != (v == Fine || v == Absent) {
			t.Errorf("%d.Quiet() = %v", v, v.Quiet())
		}
	}
}
