package render

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
)

func cell(status string, samples ...int64) *report.Lang {
	l := &report.Lang{Status: outcome.Status(status), ElapsedNsSamples: samples}
	if len(samples) > 0 {
		l.ElapsedNsMedian = samples[len(samples)/2]
	}
	return l
}

// Every way a bench can lack a comparison has its own label: the bench in
// one report only, the language's cell in one or neither, no samples on
// one side or both.
func TestCompareLabels(t *testing.T) {
	ok := cell("ok", 100, 101, 102, 103, 104)
	for _, c := range []struct {
		name     string
		old, cur *report.Bench // nil: the report has no such bench
		want     string
	}{
		{"bench only in new", nil, &report.Bench{SubjectResult: ok}, OnlyNew},
		{"bench only in old", &report.Bench{SubjectResult: ok}, nil, OnlyOld},
		{"cell only in new", &report.Bench{}, &report.Bench{SubjectResult: ok}, OnlyNew},
		{"cell only in old", &report.Bench{SubjectResult: ok}, &report.Bench{}, OnlyOld},
		{"cell in neither", &report.Bench{}, &report.Bench{}, Neither},
		{"null comparatives", &report.Bench{Comparatives: map[string]*report.Lang{"c": nil}}, &report.Bench{}, Neither},
		{"no samples in either", &report.Bench{SubjectResult: cell("run_failed")}, &report.Bench{SubjectResult: cell("timeout")}, "no samples in either report (old run_failed, new timeout)"},
		{"no samples in old", &report.Bench{SubjectResult: cell("build_failed")}, &report.Bench{SubjectResult: ok}, "no samples in the old report (build_failed)"},
		{"no samples in new", &report.Bench{SubjectResult: ok}, &report.Bench{SubjectResult: cell("")}, "no samples in the new report (no status)"},
		{"both", &report.Bench{SubjectResult: ok}, &report.Bench{SubjectResult: ok}, "~"},
	} {
		old, cur := &report.Report{Subject: "c"}, &report.Report{Subject: "c"}
		if c.old != nil {
			c.old.Name = "b"
			old.Benches = append(old.Benches, c.old)
		}
		if c.cur != nil {
			c.cur.Name = "b"
			cur.Benches = append(cur.Benches, c.cur)
		}
		tab := Reports(old, cur, "c", nil, 0.05)
		if len(tab.Rows) != 1 || tab.Rows[0].Verdict != c.want {
			t.Errorf("%s: rows %+v, want one %q", c.name, tab.Rows, c.want)
		}
	}
}

// A "~" is marked too-few-samples exactly when no data of its sizes could
// have reached alpha: the smallest two-sided p at n_old+n_new is not below
// it. A complete separation is used, so where the mark is absent the
// change is shown.
func TestCompareTooFewSamples(t *testing.T) {
	sep := func(n int, base int64) []int64 {
		var s []int64
		for i := range n {
			s = append(s, base+int64(i))
		}
		return s
	}
	for _, c := range []struct {
		nOld, nNew int
		alpha      float64
		tooFew     bool
	}{
		{3, 3, 0.05, true},  // smallest p 0.1
		{3, 4, 0.05, true},  // 2/35 = 0.057
		{4, 4, 0.05, false}, // 2/70 = 0.029
		{3, 5, 0.05, false}, // 2/56 = 0.036
		{3, 3, 0.2, false},  // 0.1 < 0.2
		{5, 5, 0.005, true}, // 2/252 = 0.0079
		{6, 6, 0.005, false},
		{2, 2, 0.05, true},
		{1, 9, 0.05, true}, // 2/10
	} {
		old := rep("X", map[string][]int64{"b": sep(c.nOld, 100)})
		cur := rep("X", map[string][]int64{"b": sep(c.nNew, 300)})
		r := Reports(old, cur, "", nil, c.alpha).Rows[0]
		if r.TooFewSamples != c.tooFew || (r.Verdict == "~") != c.tooFew {
			t.Errorf("%d+%d at %v: verdict %q, too few %v (min p %v), want too few %v", c.nOld, c.nNew, c.alpha, r.Verdict, r.TooFewSamples, *r.MinP, c.tooFew)
		}
	}
	// A "~" of sizes that could have reached alpha is not marked.
	same := rep("X", map[string][]int64{"b": {100, 101, 102, 103, 104}})
	if r := Reports(same, same, "", nil, 0.05).Rows[0]; r.Verdict != "~" || r.TooFewSamples {
		t.Errorf("5+5 with no change: %+v", r)
	}
}

// The 3+3 samples of a threefold slowdown cannot be significant at 0.05:
// the row says "~", and the text marks it and says why.
func TestCompareThreeFoldAtThreeSamplesIsNoted(t *testing.T) {
	old := rep("X", map[string][]int64{"loop": {990, 1000, 1010}})
	cur := rep("X", map[string][]int64{"loop": {2990, 3000, 3010}})
	var b strings.Builder
	Reports(old, cur, "", nil, 0.05).Text(&b)
	for _, want := range []string{"3+3  ~ ¹", "¹ too few samples for the test to reach p < 0.05: at 3+3 the smallest p it can give is 0.1; need ≥ 4 samples a side"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
}

// The geomean is over the benches with figures on both sides; the others
// are named.
func TestCompareGeomean(t *testing.T) {
	old := rep("X", map[string][]int64{"a": {100, 100, 100}, "b": {400, 400, 400}, "gone": {1, 1, 1}})
	cur := rep("X", map[string][]int64{"a": {200, 200, 200}, "b": {800, 800, 800}, "new": {1, 1, 1}})
	g := Reports(old, cur, "", nil, 0.05).Geomean
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-9 }
	if g == nil || g.Benches != 2 || !near(*g.Old, 200) || !near(*g.New, 400) || !near(*g.DeltaPct, 100) {
		t.Fatalf("geomean %+v", g)
	}
	if strings.Join(g.LeftOut, ",") != "new,gone" && strings.Join(g.LeftOut, ",") != "gone,new" {
		t.Fatalf("left out %v", g.LeftOut)
	}
	none := Reports(rep("X", map[string][]int64{"a": {1}}), rep("X", nil), "", nil, 0.05).Geomean
	if none == nil || none.Benches != 0 || none.Old != nil || len(none.LeftOut) != 1 {
		t.Fatalf("geomean of nothing %+v", none)
	}
}

// --lang is checked against the languages the two reports hold; the error
// names them.
func TestCompareFilesLang(t *testing.T) {
	const dir = "testdata/compare/"
	for _, c := range []struct {
		lang, want string
	}{
		{"cobol", "compare: --lang=cobol: neither report holds it; give one of c, go"},
		{"C", "give one of c, go"},
	} {
		if _, err := CompareFiles(dir+"old.json", dir+"new.json", c.lang, "time", 0.05); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("--lang=%s: %v", c.lang, err)
		}
	}
	for _, lang := range []string{"", "c", "go"} {
		if _, err := CompareFiles(dir+"old.json", dir+"new.json", lang, "time", 0.05); err != nil {
			t.Errorf("--lang=%s: %v", lang, err)
		}
	}
}

// compare's text and JSON of two stored reports (testdata/compare) are
// the golden files'; the JSON names its schema and kind. go test -update
// rewrites them.
func TestCompareGolden(t *testing.T) {
	const dir = "testdata/compare/"
	for _, c := range []struct {
		lang, golden string
		json         bool
	}{
		{"", "c.txt", false},
		{"go", "go.txt", false},
		{"", "c.json", true},
	} {
		tab, err := CompareFiles(dir+"old.json", dir+"new.json", c.lang, "time", 0.05)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		if c.json {
			if err := tab.JSON(&b); err != nil {
				t.Fatal(err)
			}
			var head struct{ Schema, Kind string }
			if err := json.Unmarshal(b.Bytes(), &head); err != nil || head.Schema != CompareSchema || head.Kind != "compare" {
				t.Errorf("JSON head %+v %v", head, err)
			}
			// which halebench wrote it differs from build to build: it
			// must be there, and the golden file holds the rest
			tool := regexp.MustCompile(`(?s)\n  "halebench": \{.*?\n  \},`)
			if !tool.Match(b.Bytes()) {
				t.Errorf("compare's JSON names no halebench:\n%s", b.String())
			}
			b = *bytes.NewBuffer(tool.ReplaceAll(b.Bytes(), nil))
		} else {
			tab.Text(&b)
		}
		if *update {
			if err := os.WriteFile(dir+c.golden, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(dir + c.golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Bytes(), want) {
			t.Errorf("%s differs:\n%s", c.golden, b.String())
		}
	}
}
