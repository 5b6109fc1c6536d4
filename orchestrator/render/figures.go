package render

import (
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// charted is the metric the ratio charts, the strip plots and the trends
// draw, taken from the registry: the headline metric, time (the page's
// axis titles say elapsed). Every figure a chart draws is read through it.
var charted = judge.MetricTime

// figures is a language's figures of the charted metric: its median and
// samples, read as the registry reads a cell.
func figures(res *report.Lang) judge.Values { return figuresOf(charted, res) }

// figuresOf is a language's figures of metric m, as the registry reads a
// cell: every chart draws any sampled metric through it. A metric's own
// chart, like its table, holds only the languages measured.
func figuresOf(m *judge.Metric, res *report.Lang) judge.Values {
	if res == nil || (!m.Headline && !res.Status.Measured()) {
		return judge.Values{}
	}
	return m.Read(res.Cell())
}

// figure writes one value of the charted metric in its format.
func figure(v int64) string { return charted.Format(v) }

// chartLabel opens a chart's axis title with its metric's name, except
// time's: the page's first chart in a category is time's, as it always was.
func chartLabel(m *judge.Metric) string {
	if m.Headline {
		return ""
	}
	return m.Name + " "
}

// better says what a ratio above 1 means: the subject is faster (time) or
// holds less of the metric.
func better(m *judge.Metric) string {
	if m.Headline {
		return "is faster"
	}
	return "has less"
}

// axisNoun names a median chart's figure: elapsed for time, else the metric.
func axisNoun(m *judge.Metric) string {
	if m.Headline {
		return "elapsed"
	}
	return m.Name
}
