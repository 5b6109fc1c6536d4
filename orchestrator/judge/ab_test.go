package judge

import (
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
)

// The band verdict on paired ratios at a 2% threshold: a real change inside
// the band is the same, an interval straddling the band is unresolved.
func TestBandVerdictRule(t *testing.T) {
	cases := []struct {
		r, lo, hi float64
		want      outcome.Status
	}{
		{1.05, 1.03, 1.07, outcome.Slower},
		{1.01, 1.005, 1.015, outcome.Same}, // real but inside the band
		{1.03, 1.01, 1.05, outcome.Slower}, // estimate past the band, interval above 1
		{1.015, 1.01, 1.03, outcome.Unresolved},
		{0.95, 0.93, 0.97, outcome.Faster},
		{1.0, 0.99, 1.01, outcome.Same},
		{1.0, 0.9, 1.1, outcome.Unresolved},
	}
	for _, c := range cases {
		if got := BandVerdict(c.r, c.lo, c.hi, 0.02); got != c.want {
			t.Errorf("BandVerdict(%v [%v, %v]) = %s, want %s", c.r, c.lo, c.hi, got, c.want)
		}
	}
}
