package judge

import (
	"fmt"

	"github.com/hale-lang/halebench/orchestrator/outcome"
)

// Instructions is the count lane's exact instruction count, held to the
// count band. The samples do not carry it: the count lane does, and
// decides first whether its runs are a count at all (the determinism
// rule, the baseline's instrument, target and scope); Judge is then exact.
var Instructions = &Metric{
	Name: "instructions", Unit: "instructions",
	Baseline:  instrBase,
	Fields:    CountFields,
	Judge:     instrRule,
	Regressed: outcome.Regression,
	Verdict:   "count_verdict",
	Column:    "instructions",
	Format:    func(n int64) string { return FormatCount(uint64(n)) },
	Compared:  true,
}

func instrBase(e *Entry) (Base, bool) {
	if !e.HasCounts() {
		return Base{}, false
	}
	return Base{Median: int64(e.Instructions), Band: e.CountTol(), BandFrom: "count_band"}, true
}

// instrRule holds an exact count to the band: no significance to test, a
// count that repeats to the instruction is the program's.
func instrRule(c Values, b Base, _ float64) MetricCheck {
	v := MetricCheck{Median: c.Median, Baseline: b.Median, Band: b.Band, BandFrom: b.BandFrom}
	delta := c.Median - b.Median
	v.Ratio = float64(c.Median) / float64(b.Median)
	switch {
	case v.Ratio > 1+v.Band:
		v.Status = outcome.Regression
		v.Why = fmt.Sprintf("instructions %s the baseline (%+d: %d vs %d), over its %s band", Pct(v.Ratio), delta, c.Median, b.Median, PctBand(v.Band))
	case v.Ratio < 1-v.Band:
		v.Status = outcome.Improved
		v.Why = fmt.Sprintf("instructions %s the baseline (%+d), past its %s band", Pct(v.Ratio), delta, PctBand(v.Band))
	default:
		v.Status = outcome.OK
	}
	return v
}
