package render

import (
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// memRep is a report whose subject's figures are memory samples (cgroup
// peaks where peak is set, maxrss otherwise) beside a time that does not
// move.
func memRep(peak bool, mem map[string][]int64) *report.Report {
	r := rep("X", nil)
	for name, s := range mem {
		l := &report.Lang{Status: "ok", ElapsedNsMedian: 100, ElapsedNsSamples: []int64{100, 100, 100, 100, 100}}
		if peak {
			med := s[len(s)/2]
			l.MemPeakKBMedian, l.MemPeakKBSamples = &med, s
		} else {
			l.MaxRSSKBMedian, l.MaxRSSKBSamples = s[len(s)/2], s
		}
		r.Benches = append(r.Benches, &report.Bench{Name: name, SubjectResult: l})
	}
	return r
}

// compare by memory takes each cell's memory as the registry's memory
// metric reads it (the cgroup peak, else maxrss): higher, lower or ~, its
// figures in KiB's format, the metric named in the text and the JSON; by
// time the same reports show no change.
func TestCompareByMetric(t *testing.T) {
	s := func(base int64) []int64 { return []int64{base, base + 1, base + 2, base + 3, base + 4} }
	for _, peak := range []bool{true, false} {
		old := memRep(peak, map[string][]int64{"grew": s(1000), "shrank": s(1000), "same": s(1000)})
		cur := memRep(peak, map[string][]int64{"grew": s(2000), "shrank": s(500), "same": s(1000)})
		tab := Reports(old, cur, "", judge.MetricMemory, 0.05)
		by := map[string]Row{}
		for _, r := range tab.Rows {
			by[r.Bench] = r
		}
		if by["grew"].Verdict != "higher" || by["shrank"].Verdict != "lower" || by["same"].Verdict != "~" ||
			by["grew"].New != 2002 || tab.Metric != "memory" || tab.Unit != "KiB" {
			t.Fatalf("peak %v: %+v", peak, tab)
		}
		var out strings.Builder
		tab.Text(&out)
		for _, want := range []string{"metric: memory (KiB)", judge.FormatKiB(1002), judge.FormatKiB(2002), "higher", "lower"} {
			if !strings.Contains(out.String(), want) {
				t.Errorf("text lacks %q:\n%s", want, out.String())
			}
		}
		byTime := Reports(old, cur, "", nil, 0.05)
		for _, r := range byTime.Rows {
			if r.Verdict != "~" || r.Old != 100 {
				t.Errorf("by time: %+v", r)
			}
		}
		if byTime.Metric != "time" || byTime.Unit != "ns" {
			t.Errorf("by time the table names metric %q in %q; want time in ns", byTime.Metric, byTime.Unit)
		}
		var text strings.Builder
		byTime.Text(&text)
		if strings.Contains(text.String(), "metric:") {
			t.Errorf("time's text names its metric, which it never did:\n%s", text.String())
		}
	}
}
