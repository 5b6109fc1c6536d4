package outcome

// FailsGate says whether a run or bench of this severity fails the gate:
// a failure and a regression always do; what needs attention (inconclusive,
// interrupted, a status this code does not know) does under --strict.
// The exit code, the JUnit report and every other strict rule ask this.
func (v Severity) FailsGate(strict bool) bool {
	return v >= Regresses || strict && v == Attention
}

// Measured says whether a (bench, language) result with status s carries a
// timed number a reader may see: it ran to the end (ok), the judge marked
// it a regression of time or memory, or it ran but its check disagreed
// with its siblings (parity_mismatch: its number shown, and marked).
func (s Status) Measured() bool {
	switch s {
	case OK, Regression, MemRegression, StatusParityMismatch:
		return true
	}
	return false
}
