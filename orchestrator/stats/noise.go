package stats

import (
	"math"
	"sort"
)

// RelSEMedian is the standard error of the median of xs relative to the
// median: a robust spread (1.4826 × the median absolute deviation, the
// standard deviation where the samples are normal, and unmoved by an
// outlier) × 1.2533 / √n, over the median. Zero for fewer than two samples.
func RelSEMedian(xs []int64) float64 {
	if len(xs) < 2 {
		return 0
	}
	m := Median(xs)
	if m == 0 {
		return 0
	}
	dev := make([]int64, len(xs))
	for i, x := range xs {
		d := x - m
		if d < 0 {
			d = -d
		}
		dev[i] = d
	}
	mad := float64(medianFloat(dev))
	return 1.2533 * 1.4826 * mad / math.Sqrt(float64(len(xs))) / float64(m)
}

func medianFloat(xs []int64) float64 {
	s := append([]int64(nil), xs...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	n := len(s)
	if n%2 == 1 {
		return float64(s[n/2])
	}
	return (float64(s[n/2-1]) + float64(s[n/2])) / 2
}

// d2 is the expected range of n independent standard normal draws: the
// range of n run medians over d2(n) estimates their standard deviation.
var d2 = map[int]float64{2: 1.128, 3: 1.693, 4: 2.059, 5: 2.326, 6: 2.534, 7: 2.704, 8: 2.847, 9: 2.970, 10: 3.078}

// D2 is d2(n) for 2 ≤ n ≤ 10 (0 outside).
func D2(n int) float64 { return d2[n] }

// Drift is how far the medians of independent runs of an unchanged
// program move between runs, relative to their median: the range over the
// median (driftRange) and that range over d2(N) (sigma). Zero for fewer
// than two runs; above ten runs d2(10) is used (an underestimate of d2,
// so sigma errs wide).
func Drift(runMedians []int64) (sigma, driftRange float64) {
	n := len(runMedians)
	if n < 2 {
		return 0, 0
	}
	m := Median(runMedians)
	if m == 0 {
		return 0, 0
	}
	lo, hi := runMedians[0], runMedians[0]
	for _, x := range runMedians {
		lo, hi = min(lo, x), max(hi, x)
	}
	driftRange = float64(hi-lo) / float64(m)
	k := n
	if k > 10 {
		k = 10
	}
	return driftRange / d2[k], driftRange
}

// Band is the relative tolerance a bench's median gets: four times the
// larger of its within-run noise and its between-run drift, kept within
// [floor, ceil].
func Band(noise, driftSigma, floor, ceil float64) float64 {
	b := 4 * math.Max(noise, driftSigma)
	return math.Min(math.Max(b, floor), ceil)
}
