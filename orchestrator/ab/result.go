package ab

import "github.com/hale-lang/halebench/orchestrator/abreport"

// The result's types live in abreport, which a verb that only reads or
// renders a result imports without the engine.
type (
	// Result is one ab run (abreport.Result).
	Result = abreport.Result
	// Bench is one bench's comparison in one language (abreport.Bench).
	Bench = abreport.Bench
)

// ErrSlower is what a caller returns when a bench is slower in B and it
// was asked to fail on that (exit 1).
var ErrSlower = abreport.ErrSlower
