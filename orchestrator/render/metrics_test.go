package render

import (
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// The page tables every sampled metric the document holds beyond time,
// from the registry alone: a metric registered here, whose figure the
// report keeps under figures, gets its table in its format; one that no
// language holds gets none.
func TestMetricTablesFollowTheRegistry(t *testing.T) {
	toy := &judge.Metric{Name: "toy", Unit: "widgets", Of: "toy_widgets", Format: func(v int64) string { return "w" + strings.Repeat("!", int(v)) }}
	defer judge.Register(toy)()
	defer judge.Register(&judge.Metric{Name: "absent", Unit: "ns", Of: "absent_ns"})()
	r := memRep(true, map[string][]int64{"a": {1000, 1001, 1002}})
	r.Settings.Languages = []string{"c"}
	r.Benches[0].SubjectResult.Figures = map[string]report.Figure{"toy_widgets": {Median: 3, Samples: []int64{2, 3, 4}}}
	tabs := newMetricTables(r, "micro", r.Benches)
	var captions []string
	for _, tab := range tabs {
		captions = append(captions, tab.Caption)
	}
	if got := strings.Join(captions, " | "); got != "Median memory (KiB) per bench and language. | Median toy (widgets) per bench and language." {
		t.Fatalf("tables: %s", got)
	}
	if cells := tabs[1].Rows[0].Cells; len(cells) == 0 || cells[0] != "w!!!" {
		t.Fatalf("toy cells %v (langs %v)", cells, tabs[1].Heads)
	}
	if cells := tabs[0].Rows[0].Cells; cells[0] != judge.FormatKiB(1001) {
		t.Fatalf("memory cells %v", cells)
	}
	// Each table has its chart, on the metric's own axis: the subject
	// alone holds toy here, so its medians, ticks in toy's format.
	toyChart := string(tabs[1].Chart)
	if !strings.Contains(toyChart, "median toy (log scale): no other language beside") || !strings.Contains(toyChart, ">w!") {
		t.Fatalf("toy's chart: %s", toyChart)
	}
	if !strings.Contains(string(tabs[0].Chart), "median memory") {
		t.Fatalf("memory's chart: %s", tabs[0].Chart)
	}
}
