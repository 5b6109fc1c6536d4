package ab

import (
	"fmt"
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// countJob is the count job of bench name in language l, planned as run
// plans it: as many counted runs as the determinism rule needs, each
// bounded as run bounds it; or why l is not counted.
func countJob(l suite.Language, name string, sampleTimeout time.Duration) (*wire.CountJob, string) {
	cj, why := runner.CountJobTimed(l, name, judge.MinCountedRuns, sampleTimeout)
	if why != "" {
		return nil, why
	}
	return &cj, ""
}

// judgeCounts sets b's instructions from each side's counted runs, by the
// count lane's rule (judge.Summarize): a side whose runs disagree (threads,
// clock-driven work) is count_unstable and the pair has no instruction
// ratio, as run would not gate it.
func judgeCounts(b *Bench, p Pair, a, bs []runner.Count) {
	if p.NotCounted != "" {
		b.CountStatus = outcome.NotCounted
		b.Detail = join(b.Detail, "not counted: "+p.NotCounted)
		return
	}
	if p.A.Job.Count == nil || p.B.Job.Count == nil || b.Rounds == 0 {
		return // nothing was asked, or no round ran
	}
	ca := judge.Summarize(judge.CountCell{Asked: true, Runs: a})
	cb := judge.Summarize(judge.CountCell{Asked: true, Runs: bs})
	b.InstrA, b.InstrB = ca.Median, cb.Median
	switch {
	case ca.Status == outcome.CountFailed || cb.Status == outcome.CountFailed:
		b.CountStatus = outcome.CountFailed
		b.Detail = join(b.Detail, "counts failed: "+sideWhy(ca, cb, outcome.CountFailed))
	case ca.Status == outcome.CountUnstable || cb.Status == outcome.CountUnstable:
		b.CountStatus = outcome.CountUnstable
		b.Detail = join(b.Detail, "counts unstable: "+sideWhy(ca, cb, outcome.CountUnstable))
	case ca.Scope != cb.Scope:
		b.CountStatus = outcome.CountFailed
		b.Detail = join(b.Detail, fmt.Sprintf("counts failed: A counted %s, B %s", ca.Scope, cb.Scope))
	default:
		b.CountStatus = outcome.OK
		b.InstrRatio = float64(cb.Median) / float64(ca.Median)
	}
}

// sideWhy names the side (or sides) whose counts ended st, with why.
func sideWhy(a, b judge.Counts, st outcome.Status) string {
	switch {
	case a.Status == st && b.Status == st:
		return "A: " + a.Why + "; B: " + b.Why
	case a.Status == st:
		return "A: " + a.Why
	}
	return "B: " + b.Why
}

// byCounts makes a bench's verdict, medians and ratio those of metric m
// that the count lane carries (instructions): each side's median counted
// run, their exact ratio held to the band t, no interval to wait for. A
// bench without a count that compares has no verdict on m: missing, with
// the count lane's reason; its time rounds stay in the samples.
func byCounts(b *Bench, m *judge.Metric, t float64) {
	b.SamplesA, b.SamplesB = nil, nil
	b.MedianA, b.MedianB, b.Ratio, b.RatioLow, b.RatioHigh, b.HalfWidth = 0, 0, 0, 0, 0, 0
	if b.CountStatus != outcome.OK || b.InstrA == 0 {
		why := string(b.CountStatus)
		if why == "" {
			why = "the language is not counted here"
		}
		if b.Verdict != outcome.Missing {
			b.Verdict = outcome.Missing
			b.Detail = join(b.Detail, "no "+m.Name+" to compare: "+why)
		}
		return
	}
	b.MedianA, b.MedianB = float64(b.InstrA), float64(b.InstrB)
	b.Ratio, b.RatioLow, b.RatioHigh = b.InstrRatio, b.InstrRatio, b.InstrRatio
	b.Verdict = judge.BandVerdict(b.Ratio, b.RatioLow, b.RatioHigh, t)
}
