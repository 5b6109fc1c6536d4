package outcome

// The count lane's verdicts on a (bench, language) cell, beside OK,
// Regression, Improved and NoBaseline, which it shares with the time gate.
const (
	// CountUnstable: the cell's counted runs differ by more than the
	// determinism rule allows (threads, clock-driven work). Reported with
	// its spread; counts do not gate it.
	CountUnstable Status = "count_unstable"
	// CountFailed: a counted run failed (Valgrind missing or failing, a
	// crash, a timeout) or too few runs were counted. Time is still judged.
	CountFailed Status = "count_failed"
	// NotCounted: the cell was not counted, by design (a language Valgrind
	// cannot run, a count budget spent); the reason is said beside it.
	NotCounted Status = "not_counted"
	// Incomparable: the baseline's counts were taken with another Valgrind,
	// CPU target or scope; they never gate this run's.
	Incomparable Status = "incomparable"
)
