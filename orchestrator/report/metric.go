package report

import (
	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/stats"
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

// Cell is lang's stored result as the metric registry reads a cell: every
// figure it holds, by the wire's name.
func (l *Lang) Cell() judge.MetricCell {
	c := judge.MetricCell{}
	if l.ElapsedNsMedian > 0 || len(l.ElapsedNsSamples) > 0 {
		c[wire.ElapsedNs] = judge.Values{Median: l.ElapsedNsMedian, Samples: l.ElapsedNsSamples}
	}
	if l.MaxRSSKBMedian > 0 || len(l.MaxRSSKBSamples) > 0 {
		c[wire.MaxRSSKB] = judge.Values{Median: l.MaxRSSKBMedian, Samples: l.MaxRSSKBSamples}
	}
	if l.MemPeakKBMedian != nil {
		c[wire.MemPeakKB] = judge.Values{Median: *l.MemPeakKBMedian, Samples: l.MemPeakKBSamples}
	}
	for name, f := range l.Figures {
		c[name] = judge.Values{Median: f.Median, Samples: f.Samples}
	}
	return c
}

// SetFigures stores a cell's figures in lang: the schema's own under
// their keys (elapsed_ns_median, ...), every other that a declared metric
// reads under Figures, and the median of each metric declared beyond time
// and memory under Metrics.
func (l *Lang) SetFigures(c judge.MetricCell) {
	read := map[string]bool{}
	for _, m := range judge.All() {
		read[m.Of], read[m.OrElse] = true, true
	}
	for name, v := range c {
		switch name {
		case wire.ElapsedNs:
			l.ElapsedNsMedian, l.ElapsedNsSamples, l.ElapsedNs = v.Median, v.Samples, stats.Summarize(v.Samples)
		case wire.MaxRSSKB:
			l.MaxRSSKBMedian, l.MaxRSSKBSamples = v.Median, v.Samples
		case wire.MemPeakKB:
			med := v.Median
			l.MemPeakKBMedian, l.MemPeakKBSamples = &med, v.Samples
		default:
			if !read[name] {
				continue
			}
			if l.Figures == nil {
				l.Figures = map[string]Figure{}
			}
			l.Figures[name] = Figure{Median: v.Median, Samples: v.Samples}
		}
	}
	for _, m := range judge.All() {
		if v, from := m.ReadFrom(c); m.Sampled() && m.Verdict == "" && from != "" {
			if l.Metrics == nil {
				l.Metrics = map[string]int64{}
			}
			l.Metrics[m.Name] = v.Median
		}
	}
}
