package judge

import (
	"fmt"
	"github.com/hale-lang/halebench/images/sampler/wire"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/stats"
)

// MemMinDeltaKB is the least growth of memory that can regress: below it
// the peak of a small bench moves with the page cache it happens to touch
// first (256 KiB benches measured 256 to 470 KiB, sample to sample).
const MetricMemMinDeltaKB = 512

// Memory is each sample's memory (the cgroup peak, or maxrss where there
// is none), gated by its own band: growth must pass the band and
// MemMinDeltaKB, and, where the baseline kept samples, be significant.
var MetricMemory = &Metric{
	Name: "memory", Unit: "KiB",
	Of:        wire.MemPeakKB,
	OrElse:    wire.MaxRSSKB,
	Baseline:  memBase,
	Fields:    MemoryFields,
	Record:    memRecord,
	Judge:     memRule,
	Regressed: outcome.MemRegression,
	Verdict:   "mem_verdict",
	Format:    FormatKiB,
}

// memRecord writes the median of every run's maxrss (the seed's field),
// and of its memory samples (the cgroup peak's where the host gave one),
// with the samples and the band their noise and drift give, floored by
// MemBandFloor.
func memRecord(metric *Metric, e *Entry, runs []MetricCell) {
	var rss, mem, medians []int64
	var noises []float64
	source := ""
	for _, r := range runs {
		m, from := metric.ReadFrom(r)
		rss, mem = append(rss, r[wire.MaxRSSKB].Samples...), append(mem, m.Samples...)
		medians, noises = append(medians, m.Median), append(noises, stats.RelSEMedian(m.Samples))
		source = from
	}
	e.MaxRSSKB, e.MemPeakKB = stats.Median(rss), 0
	if source == wire.MemPeakKB {
		e.MemPeakKB = stats.Median(mem)
	}
	if m := stats.Median(mem); m > 0 {
		sigma, _ := stats.Drift(medians)
		band := stats.Band(stats.MedianFloat(noises), sigma, MemBandFloor, BandCeil) // floored by MemBandFloor
		e.MemSource, e.MemKB, e.MemTolerance, e.MemSamples = source, m, &band, mem
	}
}

// memBase is the entry's memory baseline; none where halebench recorded
// no memory band.
func memBase(e *Entry) (Base, bool) {
	if e == nil {
		return Base{}, false
	}
	band := e.MemTol()
	if band == nil {
		return Base{}, false
	}
	return Base{Median: e.MemKB, Samples: e.MemSamples, Band: *band, BandFrom: "mem_tolerance"}, true
}

func memRule(c Values, b Base, alpha float64) MetricCheck {
	v := MetricCheck{Median: c.Median, Baseline: b.Median, Band: b.Band, BandFrom: b.BandFrom, Noise: stats.RelSEMedian(c.Samples)}
	v.Ratio = float64(c.Median) / float64(b.Median)
	if v.Ratio <= 1+v.Band || c.Median-b.Median < MetricMemMinDeltaKB {
		v.Status = outcome.OK
		return v
	}
	if len(b.Samples) > 0 && len(c.Samples) > 0 {
		p := stats.MannWhitneyGreater(c.Samples, b.Samples)
		v.P = &p
		if p >= alpha {
			v.Status, v.Why = outcome.Inconclusive, fmt.Sprintf("memory %s the baseline, over its %s band, but not significant (p = %.2g)", Pct(v.Ratio), PctBand(v.Band), p)
			return v
		}
	}
	v.Status, v.Why = outcome.MemRegression, fmt.Sprintf("memory %s the baseline (%d KiB vs %d KiB), over its %s band", Pct(v.Ratio), c.Median, b.Median, PctBand(v.Band))
	return v
}
