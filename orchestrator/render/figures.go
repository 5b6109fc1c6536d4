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
func figures(res *report.Lang) judge.Values {
	if res == nil {
		return judge.Values{}
	}
	return charted.Read(res.Cell())
}

// figure writes one value of the charted metric in its format.
func figure(v int64) string { return charted.Format(v) }
