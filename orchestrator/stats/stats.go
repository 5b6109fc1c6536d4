package stats

import (
	"math"
	"sort"
)

// Summary describes a set of samples.
type Summary struct {
	N      int     `json:"n"`
	Median int64   `json:"median"`
	Min    int64   `json:"min"`
	Max    int64   `json:"max"`
	Mean   float64 `json:"mean"`
	CV     float64 `json:"cv"` // standard deviation / mean
}

// Median is the middle value; for an even count, the mean of the two middle
// values, rounded down. Zero for no samples.
func Median(xs []int64) int64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]int64(nil), xs...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	m := len(s) / 2
	if len(s)%2 == 1 {
		return s[m]
	}
	return s[m-1] + (s[m]-s[m-1])/2
}

// MedianFloat is the middle of xs; for an even count, the mean of the two
// middle values. Zero for none.
func MedianFloat(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if n := len(s); n%2 == 1 {
		return s[n/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

// Summarize computes the summary of xs.
func Summarize(xs []int64) Summary {
	if len(xs) == 0 {
		return Summary{}
	}
	s := Summary{N: len(xs), Median: Median(xs), Min: xs[0], Max: xs[0]}
	var sum float64
	for _, x := range xs {
		if x < s.Min {
			s.Min = x
		}
		if x > s.Max {
			s.Max = x
		}
		sum += float64(x)
	}
	s.Mean = sum / float64(len(xs))
	if len(xs) > 1 && s.Mean != 0 {
		var ss float64
		for _, x := range xs {
			d := float64(x) - s.Mean
			ss += d * d
		}
		s.CV = math.Sqrt(ss/float64(len(xs)-1)) / s.Mean
	}
	return s
}

// Ratio is a/b rounded to 4 decimals, as the seed's report printed it.
func Ratio(a, b int64) float64 {
	if b == 0 {
		return 0
	}
	return math.Round(float64(a)/float64(b)*10000) / 10000
}
