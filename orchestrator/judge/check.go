package judge

import (
	"fmt"
	"math"
	"sort"

	"github.com/hale-lang/halebench/orchestrator/stats"
)

// Ranges a baselines file's figures must lie in. Bands and relative
// figures are fractions of the median (0.05 = 5 %): a band of 0 or below
// gates nothing sensibly, and a σ over 100 % of the median (a hand-written
// 1e9) would make every change inconclusive.
const (
	MaxRelSigma = 1.0  // noise, drift_sigma, host_drift_sigma
	MaxRelRange = 10.0 // drift_range: the spread of the run medians
	MaxRuns     = 1000 // runs
	// MedianSlack is how far elapsed_ns (and mem_kb) may sit from the
	// median of the entry's own samples: halebench writes them equal; a
	// hand edit that moves one and not the other is refused.
	MedianSlack = 0.01
)

// check names the first figure of f out of its range, "" when all are in.
func check(f *File) string {
	if err := f.Halebench.Check(); err != nil {
		return err.Error()
	}
	if msg := relative("", "host_drift_sigma", f.HostDriftSigma, MaxRelSigma); msg != "" {
		return msg
	}
	if f.Arch != "" && f.Arch != "amd64" && f.Arch != "arm64" {
		return fmt.Sprintf("field arch is %q, want amd64 or arm64 (or none: amd64)", f.Arch)
	}
	if f.Machine != nil && f.Machine.LogicalCPUs < 0 {
		return fmt.Sprintf("field machine.logical_cpus is %d, want 0 or more", f.Machine.LogicalCPUs)
	}
	names := make([]string, 0, len(f.Benches))
	for name := range f.Benches {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if msg := checkEntry(name, f.Benches[name]); msg != "" {
			return msg
		}
	}
	return ""
}

// checkEntry names the first figure of bench name's entry out of range:
// each declared metric's (Declare), in the registry's order.
func checkEntry(name string, e *Entry) string {
	where := "bench " + name + ": "
	if e == nil {
		return where + "null entry"
	}
	if len(declared) == 0 {
		return where + "no metric declared its fields (the program does not import orchestrator/judge)"
	}
	for _, f := range declared {
		if msg := f.Check(where, e); msg != "" {
			return msg
		}
	}
	return ""
}

// nonNegative names the first of figures below 0.
func nonNegative(where string, figures []namedInt) string {
	for _, c := range figures {
		if c.v < 0 {
			return fmt.Sprintf("%sfield %s is %d, want 0 or more", where, c.field, c.v)
		}
	}
	return ""
}

type namedInt struct {
	field string
	v     int64
}

// atLeast names the first sample of a list below min.
func atLeast(where, field string, xs []int64, min int64) string {
	for i, x := range xs {
		if x < min {
			return fmt.Sprintf("%sfield %s[%d] is %d, want %d or more", where, field, i, x, min)
		}
	}
	return ""
}

// agrees says whether a recorded median is, within MedianSlack, the median
// of the samples recorded beside it (none: nothing to hold it to).
func agrees(where, field string, median int64, samplesField string, xs []int64) string {
	if len(xs) == 0 {
		return ""
	}
	m := stats.Median(xs)
	if math.Abs(float64(median-m)) > MedianSlack*float64(m) {
		return fmt.Sprintf("%sfield %s is %d, but the median of its own %s is %d: one of them was edited (record both anew with --update-baselines)", where, field, median, samplesField, m)
	}
	return ""
}

// band checks a band: above 0, at most 1 (100 % of the median).
func band(where, field string, p *float64) string {
	if p != nil && !(*p > 0 && *p <= 1) {
		return fmt.Sprintf("%sfield %s is %v, want a band above 0 and at most 1 (100 %%)", where, field, *p)
	}
	return ""
}

// relative checks a relative figure: 0 to max.
func relative(where, field string, p *float64, max float64) string {
	if p != nil && !(*p >= 0 && *p <= max) {
		return fmt.Sprintf("%sfield %s is %v, want 0 to %v", where, field, *p, max)
	}
	return ""
}
