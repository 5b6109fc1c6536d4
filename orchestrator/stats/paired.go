package stats

import (
	"math"
	"sort"
)

// ExactMaxN is the largest number of pairs whose Wilcoxon signed-rank
// interval uses the exact null distribution; beyond it the normal
// approximation (with continuity correction) is used.
const ExactMaxN = 50

// Interval is a Hodges–Lehmann estimate of a paired shift with its
// Wilcoxon signed-rank confidence interval. Low and High are ±Inf when
// there are too few pairs for the asked level.
type Interval struct {
	Estimate, Low, High float64
	Level               float64 // the coverage asked, e.g. 0.999
	Exact               bool    // the exact null distribution (n ≤ ExactMaxN)
}

// LogRatios are the paired log-ratios ln(b[i]/a[i]) of the pairs whose
// both sides are positive.
func LogRatios(a, b []float64) []float64 {
	var d []float64
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] > 0 && b[i] > 0 {
			d = append(d, math.Log(b[i]/a[i]))
		}
	}
	return d
}

// HodgesLehmann is the median of the Walsh averages of d (the means of
// every pair d[i], d[j] with i ≤ j), with the signed-rank interval at
// level: robust to a few wild pairs, and for paired data an estimate of
// the shift common to all of them.
func HodgesLehmann(d []float64, level float64) Interval {
	n := len(d)
	iv := Interval{Level: level, Low: math.Inf(-1), High: math.Inf(1), Exact: n <= ExactMaxN}
	if n == 0 {
		iv.Estimate = math.NaN()
		return iv
	}
	w := walsh(d)
	iv.Estimate = medianSorted(w)
	k := signedRankK(n, 1-level)
	if k >= 1 && k <= len(w)/2 {
		iv.Low, iv.High = w[k-1], w[len(w)-k]
	}
	return iv
}

func walsh(d []float64) []float64 {
	w := make([]float64, 0, len(d)*(len(d)+1)/2)
	for i := range d {
		for j := i; j < len(d); j++ {
			w = append(w, (d[i]+d[j])/2)
		}
	}
	sort.Float64s(w)
	return w
}

func medianSorted(w []float64) float64 {
	m := len(w)
	if m%2 == 1 {
		return w[m/2]
	}
	return (w[m/2-1] + w[m/2]) / 2
}

// signedRankK is the rank k of the interval's ends among the sorted Walsh
// averages, [w(k), w(M+1-k)]: the largest k with P(T ≤ k-1) ≤ alpha/2
// under the null, T the signed-rank statistic. 0 when no k is small enough.
func signedRankK(n int, alpha float64) int {
	if n > ExactMaxN {
		m := float64(n*(n+1)) / 4
		sd := math.Sqrt(float64(n*(n+1)*(2*n+1)) / 24)
		return int(math.Floor(m - NormalQuantile(1-alpha/2)*sd + 0.5))
	}
	cdf := signedRankCDF(n)
	k := 0
	for k < len(cdf) && cdf[k] <= alpha/2 {
		k++
	}
	return k
}

// signedRankCDF is P(T ≤ t) for t = 0 … n(n+1)/2, T the Wilcoxon
// signed-rank statistic of n pairs under the null (every sign equally
// likely): counts of subsets of {1…n} by their sum, over 2^n.
func signedRankCDF(n int) []float64 {
	m := n * (n + 1) / 2
	count := make([]float64, m+1)
	count[0] = 1
	for r := 1; r <= n; r++ {
		for s := m; s >= r; s-- {
			count[s] += count[s-r]
		}
	}
	total := math.Ldexp(1, n)
	cdf := make([]float64, m+1)
	acc := 0.0
	for t, c := range count {
		acc += c
		cdf[t] = acc / total
	}
	return cdf
}

// NormalQuantile is the standard normal's p-quantile (0 < p < 1).
func NormalQuantile(p float64) float64 { return math.Sqrt2 * math.Erfinv(2*p-1) }

// PerLookLevel is the confidence each of looks sequential looks needs so
// that the whole sequence keeps overall (Bonferroni): 0.95 over 50 looks
// is 0.999 each. Stopping at the first conclusive look then raises a false
// alarm no more often than 1-overall.
func PerLookLevel(overall float64, looks int) float64 {
	if looks < 1 {
		looks = 1
	}
	return 1 - (1-overall)/float64(looks)
}

// Looks are the rounds at which a sequential comparison looks, from min to
// max: min, then each about a quarter more than the last, and max. Fewer
// looks cost less confidence per look than looking every round.
func Looks(min, max int) []int {
	if min < 1 {
		min = 1
	}
	if max < min {
		max = min
	}
	var out []int
	for r := min; r < max; {
		out = append(out, r)
		next := r + r/4
		if next == r {
			next = r + 1
		}
		r = next
	}
	return append(out, max)
}

// SequentialLooks are the looks from min to max (Looks) that can resolve
// anything — those with enough pairs for a bounded interval at the
// per-look level — and that level, the overall confidence split over the
// looks of each of family comparisons (a suite's benches: 95 % then holds
// for the whole suite, not for each bench). A look that cannot conclude
// would only cost the others confidence.
func SequentialLooks(min, max, family int, overall float64) ([]int, float64) {
	if family < 1 {
		family = 1
	}
	looks := Looks(min, max)
	for {
		level := PerLookLevel(overall, len(looks)*family)
		var keep []int
		for _, r := range looks {
			if signedRankK(r, 1-level) >= 1 {
				keep = append(keep, r)
			}
		}
		if len(keep) == len(looks) || len(keep) == 0 {
			return looks, level
		}
		looks = keep
	}
}
