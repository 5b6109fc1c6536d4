package outcome

import "testing"

func TestFailed(t *testing.T) {
	failed := []Status{BuildFailed, RunFailed, Timeout, OOM, NoElapsed, BadOutput, StatusParityMismatch, ProducerFailed, ReaderFailed, BadChecksum, NoBench}
	notFailed := []Status{OK, Unavailable, Skipped, Interrupted, Regression, NoBaseline, SubjectUnavailable, NoSubjectSource, Inconclusive, Improved, IncomparableMachine, MemRegression, Failed}
	for _, s := range failed {
		if !s.Failed() {
			t.Errorf("%s.Failed() = false", s)
		}
	}
	for _, s := range notFailed {
		if s.Failed() {
			t.Errorf("%s.Failed() = true", s)
		}
	}
}
