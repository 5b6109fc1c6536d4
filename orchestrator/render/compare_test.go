package render

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/stamp"
)

func rep(cpu string, medians map[string][]int64) *report.Report {
	r := &report.Report{Subject: "c", GeneratedAt: "t", Host: report.Host{HostInfo: report.HostInfo{CPUModel: cpu, LogicalCPUs: 2, Kernel: "6"}}}
	for name, s := range medians {
		r.Benches = append(r.Benches, &report.Bench{Name: name, SubjectResult: &report.Lang{Status: "ok", ElapsedNsMedian: s[len(s)/2], ElapsedNsSamples: s}})
	}
	return r
}

func TestCompare(t *testing.T) {
	old := rep("X", map[string][]int64{
		"same":   {100, 101, 102, 103, 104},
		"slower": {100, 101, 102, 103, 104},
		"faster": {100, 101, 102, 103, 104},
		"gone":   {1, 2, 3},
	})
	cur := rep("Y", map[string][]int64{
		"same":   {100, 102, 101, 104, 103},
		"slower": {130, 131, 132, 133, 134},
		"faster": {70, 71, 72, 73, 74},
		"new":    {5, 6, 7},
	})
	tab := Reports(old, cur, "", nil, 0.05)
	by := map[string]Row{}
	for _, r := range tab.Rows {
		by[r.Bench] = r
	}
	if by["same"].Verdict != "~" || by["slower"].Verdict != "slower" || by["faster"].Verdict != "faster" {
		t.Fatalf("rows %+v", tab.Rows)
	}
	if d := *by["slower"].DeltaPct; d < 29 || d > 31 {
		t.Fatalf("delta %v", d)
	}
	if by["gone"].Verdict != "only in the old report" || by["new"].Verdict != "only in the new report" {
		t.Fatalf("rows %+v", tab.Rows)
	}
	if len(tab.Warnings) != 1 || !strings.Contains(tab.Warnings[0], "different hosts") {
		t.Fatalf("warnings %v", tab.Warnings)
	}
	var out strings.Builder
	tab.Text(&out)
	for _, want := range []string{"slower", "+29.4%", "faster", "p=", "old t on X, 2 CPUs"} {
		if !strings.Contains(out.String(), want) {
			t.Fatalf("text lacks %q:\n%s", want, out.String())
		}
	}
	// At alpha 0.05 with five samples a side, the exact two-sided p of a
	// complete separation is 2/252.
	if p := *by["slower"].P; p < 0.0079 || p > 0.008 {
		t.Fatalf("p %v", p)
	}
}

// The table's text comes from two report files: their escapes never reach
// the terminal.
func TestTextIsCleaned(t *testing.T) {
	old := rep("\x1b[2JX", map[string][]int64{"b\x1b[31m": {1, 2, 3}, "gone\x1b]0;t\x07": {1, 2, 3}})
	cur := rep("Y", map[string][]int64{"b\x1b[31m": {1, 2, 3}})
	var b strings.Builder
	Reports(old, cur, "", nil, 0.05).Text(&b)
	if strings.ContainsAny(b.String(), "\x1b\x07") || !strings.Contains(b.String(), "gone") {
		t.Fatalf("text %q", b.String())
	}
}

// compare's table from two stored files: alpha and the metric are checked
// first, then each file; the same report twice has no change.
func TestCompareFiles(t *testing.T) {
	for _, c := range []struct {
		alpha          float64
		metric, newest string
		want           string
	}{
		{1, "time", fixture, "compare: --alpha=1: want a significance level above 0 and below 0.5"},
		{0, "time", fixture, "compare: --alpha=0: want"},
		{math.NaN(), "time", fixture, "compare: --alpha=NaN: want"},
		{0.05, "instructions", fixture, "compare: --metric=instructions: give one of time, memory"},
		{0.05, "time", "testdata/absent.json", "absent.json"},
	} {
		if _, err := CompareFiles(fixture, c.newest, "", c.metric, c.alpha); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v", c, err)
		}
	}
	tab, err := CompareFiles(fixture, fixture, "", "memory", 0.05)
	if err != nil || tab.Metric != "memory" || len(tab.Rows) == 0 || tab.Rows[0].Verdict != "~" {
		t.Errorf("%+v %v", tab, err)
	}
}

// report with nothing to read says what to give.
func TestLoadAllWantsReports(t *testing.T) {
	if _, err := LoadAll(nil, "", nil); err == nil || err.Error() != "give at least one report (results/run-*.json) or --history=results/" {
		t.Errorf("%v", err)
	}
}

// compare's JSON names the halebench that wrote it, as every document
// halebench writes does.
func TestCompareJSONNamesItsTool(t *testing.T) {
	var b strings.Builder
	if err := (Table{Lang: "c", Rows: []Row{}}).JSON(&b); err != nil {
		t.Fatal(err)
	}
	var got struct{ Halebench *stamp.Tool }
	if err := json.Unmarshal([]byte(b.String()), &got); err != nil || got.Halebench == nil || *got.Halebench != *stamp.This() {
		t.Fatalf("compare JSON names %v (%v); want %v:\n%s", got.Halebench, err, stamp.This(), b.String())
	}
}
