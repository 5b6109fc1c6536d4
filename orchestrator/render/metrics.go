package render

import (
	"html/template"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// metricTable is one sampled metric's medians in a category: per bench,
// each language's median in the metric's format (and its ratio to the
// subject's, which its chart draws). The page has one for
// every sampled metric the document holds beyond the headline (time, whose
// figures the chart and the medians table give), so a metric declared in
// the registry reaches the page without a line here.
type metricTable struct {
	// Chart draws the metric as the category's first chart draws time.
	Chart     template.HTML
	ChartNote string
	Caption   string
	Heads     []string
	Rows      []metricRow
}

type metricRow struct {
	Bench string
	Cells []string
}

// newMetricTables are the tables and charts of benches' sampled metrics
// beyond the headline, in the registry's order; a metric no language holds
// on any of benches has none.
func newMetricTables(r *report.Report, title string, benches []*report.Bench) []metricTable {
	var out []metricTable
	langs := report.Langs(r)
	for _, m := range judge.All() {
		if !m.Sampled() || m.Headline {
			continue
		}
		t := metricTable{Caption: "Median " + m.Name + " (" + m.Unit + ") per bench and language."}
		for _, l := range langs {
			t.Heads = append(t.Heads, l.Title)
		}
		held := false
		for _, b := range benches {
			row := metricRow{Bench: b.Name}
			for _, l := range langs {
				cell := "—"
				if res := report.LangResult(r, b, l.Name); res != nil && res.Status.Measured() {
					if v := m.Read(res.Cell()); v.Median > 0 {
						cell, held = m.Formatted(v.Median), true
						// the ratio its chart draws, so no figure is only there
						if s := figuresOf(m, b.SubjectResult).Median; s > 0 && l.Name != r.Subject {
							cell += " (" + report.FormatRatio(float64(v.Median)/float64(s)) + "×)"
						}
					}
				}
				row.Cells = append(row.Cells, cell)
			}
			t.Rows = append(t.Rows, row)
		}
		if held {
			t.Chart, t.ChartNote = metricChart(r, m, title+": "+m.Name, benches)
			out = append(out, t)
		}
	}
	return out
}
