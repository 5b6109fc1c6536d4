package stats

import (
	"math"
	"sort"
)

// MannWhitneyGreater is the one-sided p-value of the Mann–Whitney U test
// that the values of a tend to be larger than those of b (a shift up): the
// chance of a U statistic at least as large if both came from one
// distribution. Exact (by counting rank arrangements) for small samples
// without ties, a normal approximation with tie and continuity correction
// otherwise. 1 when either side is empty.
func MannWhitneyGreater(a, b []int64) float64 {
	n1, n2 := len(a), len(b)
	if n1 == 0 || n2 == 0 {
		return 1
	}
	type obs struct {
		v     int64
		fromA bool
	}
	all := make([]obs, 0, n1+n2)
	for _, v := range a {
		all = append(all, obs{v, true})
	}
	for _, v := range b {
		all = append(all, obs{v, false})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].v < all[j].v })
	// Mid-ranks; the sum of a's ranks gives U for a.
	var rankA, tieTerm float64
	ties := false
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].v == all[i].v {
			j++
		}
		mid := float64(i+j+1) / 2 // ranks i+1..j
		t := float64(j - i)
		if t > 1 {
			ties = true
			tieTerm += t*t*t - t
		}
		for k := i; k < j; k++ {
			if all[k].fromA {
				rankA += mid
			}
		}
		i = j
	}
	u := rankA - float64(n1*(n1+1))/2
	if !ties && n1*n2 <= 2500 && n1+n2 <= 80 {
		return exactUGreater(n1, n2, int(math.Round(u)))
	}
	n := float64(n1 + n2)
	mean := float64(n1*n2) / 2
	variance := float64(n1*n2) / 12 * ((n + 1) - tieTerm/(n*(n-1)))
	if variance <= 0 {
		return 1
	}
	z := (u - mean - 0.5) / math.Sqrt(variance)
	return 0.5 * math.Erfc(z/math.Sqrt2)
}

// exactUGreater is P(U ≥ u) for sample sizes n1, n2 with no ties: the
// share of the C(n1+n2, n1) equally likely rank arrangements whose U is at
// least u, counted with the recurrence on the largest value's side.
func exactUGreater(n1, n2, u int) float64 {
	maxU := n1 * n2
	if u <= 0 {
		return 1
	}
	if u > maxU {
		return 0
	}
	// cnt[i][j][k]: arrangements of i and j values with U = k; rolled over j.
	prev := make([][]float64, n1+1) // for j-1
	cur := make([][]float64, n1+1)
	for i := 0; i <= n1; i++ {
		prev[i] = make([]float64, maxU+1)
		cur[i] = make([]float64, maxU+1)
	}
	for i := 0; i <= n1; i++ {
		prev[i][0] = 1 // j = 0: U = 0, one arrangement
	}
	for j := 1; j <= n2; j++ {
		for i := 0; i <= n1; i++ {
			for k := range cur[i] {
				cur[i][k] = 0
			}
			for k := 0; k <= i*j; k++ {
				// Largest value from b: contributes nothing to a's U.
				c := prev[i][k]
				// Largest value from a: it beats all j values of b.
				if i > 0 && k >= j {
					c += cur[i-1][k-j]
				}
				cur[i][k] = c
			}
		}
		prev, cur = cur, prev
	}
	var total, tail float64
	for k, c := range prev[n1] {
		total += c
		if k >= u {
			tail += c
		}
	}
	return tail / total
}

// MannWhitneyMinP is the smallest two-sided p-value the Mann–Whitney U
// test can give for samples of n1 and n2 values: that of a complete
// separation (every value of one side above every value of the other),
// whose one-sided chance is one rank arrangement out of C(n1+n2, n1).
// When it is not below a significance level, no data of those sizes can
// reach that level.
func MannWhitneyMinP(n1, n2 int) float64 {
	if n1 <= 0 || n2 <= 0 {
		return 1
	}
	// C(n, k) by the product that stays an integer at every step: exact
	// while it fits a float64's 53 bits, as the sizes near any level do.
	n, k := n1+n2, min(n1, n2)
	c := 1.0
	for i := 1; i <= k; i++ {
		c = c * float64(n-k+i) / float64(i)
	}
	return math.Min(1, 2/c)
}

// MannWhitneyNeed is the least number of samples a side (the same on both)
// at which the two-sided Mann–Whitney U test can give a p below alpha.
func MannWhitneyNeed(alpha float64) int {
	n := 1
	for MannWhitneyMinP(n, n) >= alpha && n < 1<<16 {
		n++
	}
	return n
}
