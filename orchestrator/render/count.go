package render

import (
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// countTable is a category's count columns: per bench, each counted
// language's figure of each metric the count lane carries (the registry's
// unsampled metrics with a column: instructions), as the grid writes it
// (report.MetricCell), and the subject's count verdict.
type countTable struct {
	Heads []string
	Rows  []countRow
}

type countRow struct {
	Bench   string
	Cells   []string
	Verdict outcome.Status
}

// countColumn is one language's column of one count-lane metric.
type countColumn struct {
	lang string
	m    *judge.Metric
}

// newCountTable is the count columns of benches; nil when the run counted
// nothing.
func newCountTable(r *report.Report, benches []*report.Bench) *countTable {
	if r.Count == nil || len(r.Count.Languages) == 0 {
		return nil
	}
	t := &countTable{}
	var cols []countColumn
	for _, l := range report.Langs(r) {
		for _, m := range r.Columns(l.Name) {
			if !m.Sampled() {
				cols = append(cols, countColumn{l.Name, m})
				t.Heads = append(t.Heads, l.Title+" "+m.Column)
			}
		}
	}
	for _, b := range benches {
		row := countRow{Bench: b.Name, Verdict: b.CountVerdict}
		for _, c := range cols {
			row.Cells = append(row.Cells, report.MetricCell(r, b, c.lang, c.m))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}

// countTrend is the subject's instructions on a bench in each run that
// counted it stably, in date order, with its count band where the run had
// a baseline.
func countTrend(runs []*Run, subject, bench string) []trendPoint {
	var pts []trendPoint
	for i, run := range runs {
		r := run.Report
		for _, b := range r.Benches {
			if b.Name != bench {
				continue
			}
			res := report.LangResult(r, b, subject)
			if res == nil || res.Count == nil || res.Count.Ir == 0 || res.Count.Verdict == outcome.CountUnstable {
				continue
			}
			c := res.Count
			p := trendPoint{median: float64(c.Ir), date: shortDate(r.GeneratedAt), status: c.Verdict, label: shortDate(r.GeneratedAt), run: i}
			if tc, ok := r.Images[subject]; ok && tc.Version != "" {
				p.label = termtext.FirstLine(tc.Version)
			}
			if c.Baseline > 0 && c.Band > 0 {
				p.lo, p.hi = float64(c.Baseline)*(1-c.Band), float64(c.Baseline)*(1+c.Band)
			}
			pts = append(pts, p)
		}
	}
	return pts
}
