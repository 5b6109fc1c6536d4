package report

import (
	"strconv"

	"github.com/hale-lang/halebench/orchestrator/judge"
)

// CheckOf is the bench's verdict by metric m: where m's declaration puts
// it (time_verdict, mem_verdict), or under metrics by its name; nil where
// m did not gate the bench, and for a metric whose verdict is its count
// lane's (instructions: count_verdict and the lane).
func (b *Bench) CheckOf(m *judge.Metric) *Check {
	if p := b.checkSlot(m); p != nil {
		return *p
	}
	return b.Metrics[m.Name]
}

// SetCheck puts the bench's verdict by metric m where m's declaration
// says.
func (b *Bench) SetCheck(m *judge.Metric, c *Check) {
	if p := b.checkSlot(m); p != nil {
		*p = c
		return
	}
	if m.Verdict != "" || c == nil {
		return
	}
	if b.Metrics == nil {
		b.Metrics = map[string]*Check{}
	}
	b.Metrics[m.Name] = c
}

// checkSlot is the field of the report's JSON key m.Verdict, for the
// keys the schema had before metrics were declared; nil for others.
func (b *Bench) checkSlot(m *judge.Metric) **Check {
	switch m.Verdict {
	case "time_verdict":
		return &b.TimeVerdict
	case "mem_verdict":
		return &b.MemVerdict
	}
	return nil
}

// Columns are the metrics with a grid column beside lang's time that the
// report shows, in the registry's order: the count lane's where the run
// counted lang (the HTML page's count table shows those), a sampled
// metric's where any bench carries it for lang.
func (r *Report) Columns(lang string) []*judge.Metric {
	var out []*judge.Metric
	for _, m := range judge.All() {
		switch {
		case m.Column == "":
		case !m.Sampled() && r.counted(lang):
			out = append(out, m)
		case m.Sampled() && r.carries(m, lang):
			out = append(out, m)
		}
	}
	return out
}

// carries says whether any bench has lang's median of metric m.
func (r *Report) carries(m *judge.Metric, lang string) bool {
	for _, b := range r.Benches {
		if res := b.Langs(r.Subject)[lang]; res != nil {
			if _, ok := res.Metrics[m.Name]; ok {
				return true
			}
		}
	}
	return false
}

// MetricCell is lang's figure of metric m on bench b as the grid, the
// Markdown and the HTML page show it: the count lane's cell (CountCell),
// or the median in m's format with the subject's regression marked.
func MetricCell(r *Report, b *Bench, lang string, m *judge.Metric) string {
	res := b.Langs(r.Subject)[lang]
	if !m.Sampled() {
		return CountCell(res)
	}
	v, ok := int64(0), false
	if res != nil {
		v, ok = res.Metrics[m.Name]
	}
	if !ok {
		return "—"
	}
	s := strconv.FormatInt(v, 10) + " " + m.Unit
	if m.Format != nil {
		s = m.Format(v)
	}
	if c := b.CheckOf(m); lang == r.Subject && c != nil && c.Status == m.Regressed {
		s += " REGRESSION"
	}
	return clean(s)
}

// Cell is lang's stored result as the metric registry reads a cell: its
// elapsed samples, and its memory — the cgroup peak where the report has
// it, maxrss otherwise, as the run judged it.
func (l *Lang) Cell() judge.MetricCell {
	var peak *judge.Values
	if l.MemPeakKBMedian != nil {
		peak = &judge.Values{Median: *l.MemPeakKBMedian, Samples: l.MemPeakKBSamples}
	}
	return judge.NewMetricCell(judge.Values{Median: l.ElapsedNsMedian, Samples: l.ElapsedNsSamples},
		judge.Values{Median: l.MaxRSSKBMedian, Samples: l.MaxRSSKBSamples}, peak)
}
