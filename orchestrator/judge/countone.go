package judge

import (
	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/outcome"
)

// One counted run at gate time. The determinism rule needs two runs that
// agree; but where the baseline already recorded that the program repeats
// to the instruction (count_spread 0: only a stable, single-threaded
// program's counts are ever recorded), one run taken the same way that
// counts exactly the baseline's instructions settles the verdict: ok. A run
// that differs by any amount needs a second, to tell a code change (two
// runs that agree, judged against the band as ever) from nondeterminism
// (two that do not: count_unstable).

// SettledByOne says whether a cell's one counted run settles its verdict
// against entry e: the entry recorded a spread of 0, and the run — not
// threaded, taken with the baseline's Valgrind, target and scope — counted
// exactly the entry's instructions.
func SettledByOne(c CountCell, e *Entry) bool {
	if !e.HasCounts() || e.CountSpread == nil || *e.CountSpread != 0 || len(c.Runs) != 1 || c.NotCounted != "" {
		return false
	}
	r := c.Runs[0]
	return r.Status == wire.CountOK && !r.Threads && r.Ir == e.Instructions && countDifferences(e, c, r.Scope, r.Instrument) == ""
}

// SummarizeAgainst is Summarize, but a cell whose one counted run is
// SettledByOne against e is ok with that run's count (spread 0).
func SummarizeAgainst(c CountCell, e *Entry) Counts {
	if !SettledByOne(c, e) {
		return Summarize(c)
	}
	r := c.Runs[0]
	s := Counts{Status: outcome.OK, Scope: r.Scope, Instrument: r.Instrument, Ir: []uint64{r.Ir}, Median: r.Ir, EstCycles: r.EstCycles, Process: processOf(c.Runs)}
	if s.EstCycles == 0 {
		s.EstCycles = r.EstimatedCycles()
	}
	return s
}
