package judge

import "github.com/hale-lang/halebench/orchestrator/outcome"

// BandVerdict is ab's verdict on a paired ratio B/A and its interval
// against threshold t: slower when the whole interval is above 1 and the
// estimate at least 1+t, faster the mirror (below 1, at most 1/(1+t)),
// same when the interval lies inside the band [1/(1+t), 1+t], unresolved
// otherwise. It is the judge's, not the report's: the report stores the
// verdict ab reached and decides nothing.
func BandVerdict(ratio, low, high, t float64) outcome.Status {
	hi, lo := 1+t, 1/(1+t)
	switch {
	case low > 1 && ratio >= hi:
		return outcome.Slower
	case high < 1 && ratio <= lo:
		return outcome.Faster
	case low >= lo && high <= hi:
		return outcome.Same
	}
	return outcome.Unresolved
}
