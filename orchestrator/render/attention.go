// How much a row of "Needs attention" moved: the number people open the
// page for, said beside the status.

package render

import (
	"fmt"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/stats"
)

// Size is a verdict's move: the metric, its ratio now/baseline with this
// run's 95% interval of it, the baseline's and this run's medians, and what
// the medians are of.
type Size struct {
	Metric   string
	Ratio    string // "1.30× (+30.0%)"
	Interval string // "95%: 1.26–1.34"; "" where the run's noise is unknown, "exact" for a count
	Baseline string
	Now      string
	Unit     string
}

// sizeOf is metric m's move by its check c; nil when c has no baseline or
// median to move between.
func sizeOf(m *judge.Metric, c *report.Check) *Size {
	if c == nil || c.Baseline <= 0 || c.Median <= 0 {
		return nil
	}
	ratio := c.Ratio
	if ratio <= 0 {
		ratio = float64(c.Median) / float64(c.Baseline)
	}
	return newSize(m, ratio, c.Noise, c.Baseline, c.Median)
}

// newSize says a move of ratio whose median has relative standard error
// noise: its 95% interval is the one the gate judged (ratio × (1 ± 1.96
// noise)).
func newSize(m *judge.Metric, ratio, noise float64, base, now int64) *Size {
	s := &Size{Metric: m.Name, Ratio: ratioMove(ratio), Baseline: m.Format(base), Now: m.Format(now),
		Unit: "median " + m.Name + ", " + m.Unit}
	if noise > 0 {
		s.Interval = "95%: " + judge.Sig3(ratio*(1-1.96*noise)) + "–" + judge.Sig3(ratio*(1+1.96*noise))
	}
	return s
}

// ratioMove is a ratio and the move it is: "1.30× (+30.0%)".
func ratioMove(r float64) string {
	return fmt.Sprintf("%s× (%+.1f%%)", judge.Sig3(r), (r-1)*100)
}

// benchSize is the move behind a bench's own status: the check of the
// metric whose regression the status is (memory's for mem_regression), the
// count lane's for a bench only its instructions flagged, else the
// headline metric's; for a report from before the checks, the subject's
// median over the bench's baseline.
func benchSize(b *report.Bench) *Size {
	for _, m := range judge.All() {
		if m.Regressed == b.Status && !m.Headline {
			if s := metricSize(b, m); s != nil {
				return s
			}
		}
	}
	if t := b.CheckOf(charted); t == nil || t.Status != b.Status {
		for _, f := range b.FlaggedBy {
			if f == judge.Instructions.Name {
				if s := countSize(b); s != nil {
					return s
				}
			}
		}
	}
	if s := metricSize(b, charted); s != nil {
		return s
	}
	if b.BaselineElapsedNs == nil || *b.BaselineElapsedNs <= 0 {
		return nil
	}
	v := figures(b.SubjectResult)
	if v.Median <= 0 {
		return nil
	}
	base := *b.BaselineElapsedNs
	return newSize(charted, float64(v.Median)/float64(base), stats.RelSEMedian(v.Samples), base, v.Median)
}

// metricSize is metric m's move on bench b, from its check.
func metricSize(b *report.Bench, m *judge.Metric) *Size {
	if m == judge.Instructions {
		return countSize(b)
	}
	return sizeOf(m, b.CheckOf(m))
}

// countSize is the subject's instructions against their baseline: exact,
// a count has no interval.
func countSize(b *report.Bench) *Size {
	s := b.SubjectResult
	if s == nil || s.Count == nil || s.Count.Baseline == 0 || s.Count.Ir == 0 {
		return nil
	}
	m := judge.Instructions
	c := s.Count
	size := newSize(m, float64(c.Ir)/float64(c.Baseline), 0, int64(c.Baseline), int64(c.Ir))
	size.Interval, size.Unit = "exact", "counted "+m.Unit
	return size
}
