package render

import (
	"strings"
	"testing"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// compare --metric=cpu sets the reports' CPU times side by side (the
// figure a run stores under each language's figures), higher or lower in
// ns's format; and the page tables them.
func TestCompareAndPageByCPU(t *testing.T) {
	with := func(cpu []int64) *report.Report {
		r := memRep(true, map[string][]int64{"a": {1000, 1001, 1002, 1003, 1004}})
		r.Settings.Languages = []string{"c"}
		r.Benches[0].SubjectResult.Figures = map[string]report.Figure{wire.CPUNs: {Median: cpu[len(cpu)/2], Samples: cpu}}
		return r
	}
	old := with([]int64{1_000_000, 1_000_100, 1_000_200, 1_000_300, 1_000_400})
	cur := with([]int64{2_000_000, 2_000_100, 2_000_200, 2_000_300, 2_000_400})
	tab := Reports(old, cur, "", judge.CPU, 0.05)
	if len(tab.Rows) != 1 || tab.Rows[0].Verdict != "higher" || tab.Metric != "cpu" || tab.Unit != "ns" {
		t.Fatalf("compare by cpu: %+v", tab)
	}
	var out strings.Builder
	tab.Text(&out)
	if !strings.Contains(out.String(), judge.FormatNs(2_000_200)) {
		t.Errorf("text lacks the new median in ns's format:\n%s", out.String())
	}
	var caption string
	for _, m := range newMetricTables(cur, "micro", cur.Benches) {
		if strings.Contains(m.Caption, "cpu") {
			caption = m.Caption + " " + strings.Join(m.Rows[0].Cells, " ")
		}
	}
	if !strings.Contains(caption, judge.FormatNs(2_000_200)) {
		t.Errorf("page's cpu table: %q", caption)
	}
}
