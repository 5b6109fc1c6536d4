package ab

import "github.com/hale-lang/halebench/orchestrator/report"

// The result's types live in orchestrator/report, which a verb that only reads or
// renders a result imports without the engine.
type (
	// Result is one ab run (report.Result).
	Result = report.Result
	// Bench is one bench's comparison in one language (report.ABBench).
	Bench = report.ABBench
)

// ErrSlower is what a caller returns when a bench is slower in B and it
// was asked to fail on that (exit 1).
var ErrSlower = report.ErrSlower
