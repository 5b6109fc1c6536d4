package render_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/render"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// abDoc is a stored ab result, written by ab's own writer: one bench whose
// B runs at bFactor times A's time each round (with a little spread), and
// a bench named only in this result.
func abDoc(t *testing.T, at string, bFactor float64, only string) string {
	t.Helper()
	return abDocOf(t, at, bFactor, only, "")
}

// abDocOf is abDoc of an ab on metric ("": a result stored before ab
// named its metric, time's).
func abDocOf(t *testing.T, at string, bFactor float64, only, metric string) string {
	t.Helper()
	var a, b []int64
	for i := range 8 {
		x := int64(1_000_000 + 1_000*i)
		a = append(a, x)
		b = append(b, int64(float64(x)*bFactor)+int64(500*(i%3)))
	}
	r := &report.Result{Kind: report.ABKind, Schema: report.ABSchema, GeneratedAt: at, RunID: "ab-" + strings.ReplaceAll(at[:10], "-", ""), Subject: "c", Metric: metric,
		Host: report.Host{HostInfo: report.HostInfo{CPUModel: "Xeon", LogicalCPUs: 2, Kernel: "6.1"}},
		Benches: []report.ABBench{
			{Name: "fn_call", Lang: "c", Verdict: outcome.Same, Ratio: bFactor, RatioLow: bFactor - 0.01, RatioHigh: bFactor + 0.01, SamplesA: a, SamplesB: b},
			{Name: only, Lang: "c", Verdict: outcome.Same, Ratio: 1, RatioLow: 0.99, RatioHigh: 1.01},
		}}
	p, err := report.ABWrite(r, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// xprocDoc is a stored xproc report, written by xproc's own writer: c's
// small pair at scale times 5 ms, rust's a build failure.
func xprocDoc(t *testing.T, at string, scale float64) string {
	t.Helper()
	var s []int64
	for i := range 6 {
		s = append(s, int64(scale*float64(5_000_000+10_000*i)))
	}
	r := &report.XprocReport{Kind: report.XprocKind, Schema: report.XprocSchema, GeneratedAt: at, RunID: "x", Subject: "c", Status: outcome.OK,
		Host: report.Host{HostInfo: report.HostInfo{CPUModel: "Xeon", LogicalCPUs: 2, Kernel: "6.1"}},
		Variants: map[string][]*report.XprocResult{"small": {
			{Row: "c", Title: "C", Status: outcome.OK, ElapsedNsMedian: s[3], ElapsedNsSamples: s},
			{Row: "rust", Title: "Rust", Status: outcome.BuildFailed, ElapsedNsSamples: []int64{}},
		}}}
	p, err := report.WriteJSON(r, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// Two ab results compare by their B/A ratios, tested over the rounds'
// log-ratios; two xproc reports by each pair's reader times; both in the
// run compare's shape and JSON schema, with the kind named.
func TestCompareABAndXprocResults(t *testing.T) {
	old, cur := abDoc(t, "2026-12-01T10:00:00Z", 1.0, "only_old"), abDoc(t, "2026-12-02T10:00:00Z", 1.10, "only_new")
	tab, err := render.CompareFiles(old, cur, "", "time", 0.05)
	if err != nil {
		t.Fatal(err)
	}
	var text, js bytes.Buffer
	tab.Text(&text)
	if err := tab.JSON(&js); err != nil {
		t.Fatal(err)
	}
	row := tab.Rows[0]
	if row.Bench != "fn_call" || row.Verdict != "slower" || row.Ratios == nil || *row.DeltaPct < 9.9 || *row.DeltaPct > 10.1 || *row.P >= 0.05 || row.OldN != 8 {
		t.Errorf("fn_call's row: %+v", row)
	}
	for _, want := range []string{"fn_call", "1.00× [0.990, 1.01]", "1.10× [1.09, 1.11]", "+10.0%", "slower", "only_new", render.OnlyNew, "only_old", render.OnlyOld, "log-ratios"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the ab table lacks %q:\n%s", want, text.String())
		}
	}
	var doc map[string]any
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil || doc["schema"] != render.CompareSchema || doc["compares"] != "ab" || !strings.Contains(js.String(), `"ratios"`) {
		t.Errorf("ab --json (%v):\n%s", err, js.String())
	}
	if !tab.Worse() {
		t.Error("a slower ratio is not what --fail-on-slower fails on")
	}

	xo, xn := xprocDoc(t, "2026-12-01T10:00:00Z", 1), xprocDoc(t, "2026-12-02T10:00:00Z", 0.8)
	tab, err = render.CompareFiles(xo, xn, "", "time", 0.05)
	if err != nil {
		t.Fatal(err)
	}
	text.Reset()
	tab.Text(&text)
	if len(tab.Rows) != 2 || tab.Rows[0].Bench != "small/c" || tab.Rows[0].Verdict != "faster" || tab.Compares != "xproc" ||
		!strings.Contains(tab.Rows[1].Verdict, "no samples in either report (old build_failed, new build_failed)") {
		t.Errorf("xproc rows: %+v", tab.Rows)
	}
	for _, want := range []string{"small/c", "5.03 ms", "-20.0%", "faster", "stored runs' times"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the xproc table lacks %q:\n%s", want, text.String())
		}
	}
	if tab.Worse() {
		t.Error("a faster xproc row fails --fail-on-slower")
	}
}

// What compare refuses of ab and xproc documents, each for what the
// documents are: two kinds (both named), a metric they do not hold, a
// language the ab results did not compare, --lang on xproc rows.
func TestCompareKindsRefusals(t *testing.T) {
	ab, xp := abDoc(t, "2026-12-01T10:00:00Z", 1, "x"), xprocDoc(t, "2026-12-01T10:00:00Z", 1)
	for _, c := range []struct {
		old, cur, lang, metric string
		want                   []string
	}{
		{ab, xp, "", "time", []string{ab + " is an ab result (halebench-ab/1)", xp + " is an xproc report (halebench-xproc/1)", "one kind"}},
		{xp, ab, "", "time", []string{"is an xproc report", "is an ab result"}},
		{ab, ab, "", "memory", []string{"--metric=memory", "hold ratios of time", "give --metric=time"}},
		{xp, xp, "", "memory", []string{"--metric=memory", "time samples only"}},
		{ab, abDocOf(t, "2026-12-02T10:00:00Z", 1, "y", "memory"), "", "time", []string{"holds ratios of time and", "of memory: compare two ab results of one metric"}},
		{ab, ab, "go", "time", []string{"--lang=go: neither ab result compared it; give one of c"}},
		{xp, xp, "c", "time", []string{"--lang=c", "drop --lang"}},
	} {
		_, err := render.CompareFiles(c.old, c.cur, c.lang, c.metric, 0.05)
		for _, w := range c.want {
			if err == nil || !strings.Contains(err.Error(), w) {
				t.Errorf("compare %s %s --lang=%q --metric=%s: %v; want %q", c.old, c.cur, c.lang, c.metric, err, w)
			}
		}
	}
	if _, ok := judge.ByName("memory"); !ok {
		t.Fatal("the registry lost memory: the refusal above tests nothing")
	}
}

// Two ab results or two xproc reports of one sources digest are an A/A
// comparison, said as two run reports' are; of two digests, or where a
// document stored before its verb recorded one has none, nothing is said.
func TestCompareKindsSaysAA(t *testing.T) {
	const aa = "measured the same bench sources (an A/A comparison)"
	digest := func(n byte) string { return "sha256:" + strings.Repeat(string(n), 64) }
	for _, c := range []struct {
		old, cur string
		want     bool
	}{
		{digest('1'), digest('1'), true},
		{digest('1'), digest('2'), false},
		{"", "", false},
	} {
		ab := func(at, sources string) string {
			r := &report.Result{Kind: report.ABKind, Schema: report.ABSchema, GeneratedAt: at, RunID: "ab", Subject: "c", SourcesDigest: sources,
				Benches: []report.ABBench{{Name: "fn_call", Lang: "c", Verdict: outcome.Same, Ratio: 1, RatioLow: 0.99, RatioHigh: 1.01}}}
			p, err := report.ABWrite(r, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		xp := func(at, sources string) string {
			r := &report.XprocReport{Kind: report.XprocKind, Schema: report.XprocSchema, GeneratedAt: at, RunID: "x", Subject: "c", Status: outcome.OK, SourcesDigest: sources,
				Variants: map[string][]*report.XprocResult{"small": {{Row: "c", Title: "C", Status: outcome.OK, ElapsedNsMedian: 5, ElapsedNsSamples: []int64{5}}}}}
			p, err := report.WriteJSON(r, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
		for kind, paths := range map[string][2]string{
			"ab":    {ab("2026-12-01T10:00:00Z", c.old), ab("2026-12-02T10:00:00Z", c.cur)},
			"xproc": {xp("2026-12-01T10:00:00Z", c.old), xp("2026-12-02T10:00:00Z", c.cur)},
		} {
			tab, err := render.CompareFiles(paths[0], paths[1], "", "time", 0.05)
			if err != nil {
				t.Fatal(err)
			}
			said := strings.Contains(strings.Join(tab.Warnings, "\n"), aa)
			if said != c.want {
				t.Errorf("%s of sources %q and %q: warnings %q; want A/A said: %v", kind, c.old, c.cur, tab.Warnings, c.want)
			}
		}
	}
}

// Two ab results of another metric than time (ab --metric=memory) compare
// by their ratios of that metric, named by --metric: a B that grew against
// A is higher, which --fail-on-slower fails on; the text and the JSON name
// the metric.
func TestCompareABByItsMetric(t *testing.T) {
	old, cur := abDocOf(t, "2026-12-01T10:00:00Z", 1.0, "only_old", "memory"), abDocOf(t, "2026-12-02T10:00:00Z", 1.10, "only_new", "memory")
	tab, err := render.CompareFiles(old, cur, "", "memory", 0.05)
	if err != nil {
		t.Fatal(err)
	}
	if row := tab.Rows[0]; row.Bench != "fn_call" || row.Verdict != "higher" || tab.Metric != "memory" || tab.Unit != "KiB" || !tab.Worse() {
		t.Errorf("fn_call's row %+v in a table of %s (%s)", row, tab.Metric, tab.Unit)
	}
	var text bytes.Buffer
	tab.Text(&text)
	for _, want := range []string{"metric: memory (KiB)", "ratio B/A of memory (> 1: B higher than A)", "higher"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the text lacks %q:\n%s", want, text.String())
		}
	}
	if _, err := render.CompareFiles(old, cur, "", "time", 0.05); err == nil || !strings.Contains(err.Error(), "give --metric=memory") {
		t.Errorf("memory ab results by time: %v", err)
	}
}
