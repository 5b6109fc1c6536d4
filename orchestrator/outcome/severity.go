package outcome

// Severity is what a status means for a run, decided here once so that the
// judge, the exit code and every renderer (grid, Markdown, HTML) agree.
// Higher is worse.
type Severity int

// Severities, from quiet to failing.
const (
	// Fine: a number that passed, or an improvement.
	Fine Severity = iota
	// Absent: nothing to judge, by design (no baseline yet, a language
	// without a toolchain, a bench without a subject program). Quiet.
	Absent
	// Unjudged: measured, but the gate could not hold it to its baseline
	// (the baseline's machine is another). Said once, not an alarm.
	Unjudged
	// Attention: a reader should look — the run could not tell, or stopped
	// (inconclusive, interrupted), or a status this code does not know.
	Attention
	// Regresses: the gate says no (exit 1).
	Regresses
	// Fails: the subject (or a job) failed; a bench status of this
	// severity fails the run (exit 1).
	Fails
)

// Severity says what s means on its own. A bench's status may mean more
// in context: see OfBench.
func (s Status) Severity() Severity {
	switch {
	case s.Failed(), s == Failed:
		return Fails
	}
	switch s {
	case OK, Improved, Available, Same, Faster:
		return Fine
	case "", NoBaseline, SubjectUnavailable, NoSubjectSource, Unavailable, Skipped, NotCounted:
		return Absent
	case IncomparableMachine, Incomparable, Emulated:
		return Unjudged
	case Regression, MemRegression, Slower:
		return Regresses
	}
	return Attention
}

// OfBench is the severity of a bench's status given whether the baseline
// has that bench: a bench the baseline holds whose subject program is gone
// (no_subject_source) is a gate that silently lost a bench, so it fails.
func OfBench(s Status, hadBaseline bool) Severity {
	if s == NoSubjectSource && hadBaseline {
		return Fails
	}
	return s.Severity()
}

// Quiet says whether a renderer may leave a status unmentioned: nothing
// measured went wrong and nothing is missing that should be there.
func (v Severity) Quiet() bool { return v <= Absent }

// Rank orders statuses for a reader, what needs them first: 0 for a
// failure, then regressions, what the run could not tell, what was not
// gated, what is absent, and last what is fine.
func (v Severity) Rank() int {
	switch v {
	case Fine:
		return 9
	case Absent:
		return 8
	}
	return int(Fails - v)
}
