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
		countWitness(b, ca, cb)
	}
}

// countWitness holds B/A of the region counts to B/A of their witnesses,
// the whole processes' counts (judge.InstrWitness says what they are):
// where a side's region counts more than its process, or the instructions
// outside the region grew on one side past the witness's tolerance of the
// other's, B/A of the region is not taken and the pair is judged on B/A of
// the process counts, said in the detail. A side without a witness (a
// process-scope count is its own) leaves the region's ratio as it is.
func countWitness(b *Bench, a, bs judge.Counts) {
	if a.Scope != wire.ScopeRegion || a.Process == 0 || bs.Process == 0 {
		return
	}
	why := ""
	for _, s := range []struct {
		side string
		c    judge.Counts
	}{{"A", a}, {"B", bs}} {
		if w := judge.InstrWitness(s.c, 0, nil); w.Why != "" && why == "" {
			why = s.side + ": " + w.Why
		}
	}
	oa, ob := a.Process-min(a.Median, a.Process), bs.Process-min(bs.Median, bs.Process)
	if why == "" {
		if g := judge.OutsideInstrGrew(ob, oa); g != "" {
			why = "B against A: " + g
		} else if g := judge.OutsideInstrGrew(oa, ob); g != "" {
			why = "A against B: " + g
		}
	}
	if why == "" {
		return
	}
	region := b.InstrRatio
	b.InstrA, b.InstrB = a.Process, bs.Process
	b.InstrRatio = float64(bs.Process) / float64(a.Process)
	b.Detail = join(b.Detail, fmt.Sprintf("B/A of the region counts is %.3f, of the whole processes' %.3f: %s; the verdict on instructions is the processes'", region, b.InstrRatio, why))
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
