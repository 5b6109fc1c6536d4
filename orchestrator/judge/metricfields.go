package judge

import (
	"fmt"

	"github.com/hale-lang/halebench/orchestrator/stats"
)

// TimeFields are the time metric's keys (metric.Time declares them): the
// median and its samples, the runs' medians, noise and drift, and the
// bands a bench's time is held to.
var TimeFields = &Fields{
	Metric: "time",
	Keys:   []string{"elapsed_ns", "tolerance", "noise", "drift_sigma", "drift_range", "runs", "band", "tolerance_override", "run_medians", "samples"},
	Check:  checkTime,
	Settle: settleTime,
}

// MemoryFields are the memory metric's keys (metric.Memory declares
// them): the seed's maxrss, the cgroup peak, and the median, samples and
// band memory is held to.
var MemoryFields = &Fields{
	Metric: "memory",
	Keys:   []string{"maxrss_kb", "mem_peak_kb", "mem_source", "mem_kb", "mem_tolerance", "mem_samples"},
	Check:  checkMemory,
}

func checkTime(where string, e *Entry) string {
	// An entry of counts alone (UpdateCounts on a bench with no time
	// figures) has no median: 0, which no time gate reads.
	if e.ElapsedNs < 0 || e.ElapsedNs == 0 && e.Instructions == 0 {
		return where + "field elapsed_ns must be a positive integer"
	}
	if msg := nonNegative(where, []namedInt{{"runs", int64(e.Runs)}}); msg != "" {
		return msg
	}
	if e.Runs > MaxRuns {
		return fmt.Sprintf("%sfield runs is %d, want at most %d", where, e.Runs, MaxRuns)
	}
	for _, c := range []struct {
		field string
		p     *float64
	}{{"tolerance", e.Tolerance}, {"band", e.Band}, {"tolerance_override", e.ToleranceOverride}} {
		if msg := band(where, c.field, c.p); msg != "" {
			return msg
		}
	}
	for _, c := range []struct {
		field string
		p     *float64
		max   float64
	}{{"noise", e.Noise, MaxRelSigma}, {"drift_sigma", e.DriftSigma, MaxRelSigma}, {"drift_range", e.DriftRange, MaxRelRange}} {
		if msg := relative(where, c.field, c.p, c.max); msg != "" {
			return msg
		}
	}
	if msg := atLeast(where, "samples", e.Samples, 0); msg != "" {
		return msg
	}
	if msg := atLeast(where, "run_medians", e.RunMedians, 1); msg != "" {
		return msg
	}
	if len(e.RunMedians) > 0 && len(e.RunMedians) != e.Runs {
		return fmt.Sprintf("%sfield run_medians holds %d medians, field runs says %d", where, len(e.RunMedians), e.Runs)
	}
	return agrees(where, "elapsed_ns", e.ElapsedNs, "samples", e.Samples)
}

// settleTime derives the band of an entry just recorded from several
// runs: its noise and its drift, floored by the host's (a band from a
// single run, no drift measured, is left a guess).
func settleTime(e *Entry) {
	if e.Noise == nil {
		return
	}
	b := stats.Band(*e.Noise, e.Drift(), BandFloor, BandCeil)
	e.Band = &b
}

func checkMemory(where string, e *Entry) string {
	if msg := nonNegative(where, []namedInt{{"maxrss_kb", e.MaxRSSKB}, {"mem_peak_kb", e.MemPeakKB}, {"mem_kb", e.MemKB}}); msg != "" {
		return msg
	}
	if msg := band(where, "mem_tolerance", e.MemTolerance); msg != "" {
		return msg
	}
	if msg := atLeast(where, "mem_samples", e.MemSamples, 0); msg != "" {
		return msg
	}
	if e.MemKB > 0 {
		return agrees(where, "mem_kb", e.MemKB, "mem_samples", e.MemSamples)
	}
	return ""
}
