package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/result"
	"golang.org/x/net/html"
)

// The stored ab result and xproc report the result package reads as today's.
const (
	abFixture    = "../result/testdata/today/ab-20261206T101112Z-abc123.json"
	xprocFixture = "../result/testdata/today/xproc-20261206T111213Z.json"
)

// pageOfFile is report's page of one stored document, as the verb writes
// it.
func pageOfFile(t *testing.T, path string) string {
	t.Helper()
	src, err := LoadPage([]string{path}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := src.Render(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// report takes an ab result or an xproc report alone and draws its page;
// among several files it refuses one, saying its page draws it alone.
func TestReportTakesEveryKind(t *testing.T) {
	for _, c := range []struct {
		path string
		kind result.Kind
		want []string
	}{
		{abFixture, result.AB, []string{`class="chart forest"`, `<table class="medians">`, "halebench ab: B/A"}},
		{xprocFixture, result.Xproc, []string{`class="chart xproc-chart"`, `<table class="medians">`, "build_failed"}},
		{fixture, result.Run, []string{`class="chart ratio-chart"`, `<table class="medians">`}},
	} {
		src, err := LoadPage([]string{c.path}, "", nil)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if (c.kind == result.Run) != (src.Doc == nil) || (src.Doc != nil && src.Doc.Kind != c.kind) {
			t.Errorf("%s read as %+v", c.path, src)
		}
		page := pageOfFile(t, c.path)
		for _, w := range c.want {
			if !strings.Contains(page, w) {
				t.Errorf("the page of %s lacks %q", c.path, w)
			}
		}
	}
	_, err := LoadPage([]string{fixture, abFixture}, "", nil)
	if err == nil || !strings.Contains(err.Error(), "an ab result: its page draws it alone") {
		t.Errorf("a run and an ab together: %v", err)
	}
}

// One generator: the run's, the ab's and the xproc's pages share the
// layout's head, style sheet and Content-Security-Policy byte for byte,
// and the policy forbids every fetch and script.
func TestOneLayoutForEveryPage(t *testing.T) {
	pages := map[string]string{"run": pageOfFile(t, fixture), "ab": pageOfFile(t, abFixture), "xproc": pageOfFile(t, xprocFixture)}
	// The head less its title: the policy's meta and the style sheet.
	head := func(p string) string {
		return regexp.MustCompile(`<title>.*</title>`).ReplaceAllString(regexp.MustCompile(`(?s)<meta http-equiv.*</style>`).FindString(p), "")
	}
	want := head(pages["run"])
	if want == "" || !strings.Contains(want, `content="default-src &#39;none&#39;; style-src &#39;unsafe-inline&#39;"`) && !strings.Contains(want, `content="default-src 'none'; style-src 'unsafe-inline'"`) {
		t.Fatalf("the run page's head has not the policy:\n%.400s", want)
	}
	for kind, p := range pages {
		if got := head(p); got != want {
			t.Errorf("the %s page's head (policy, style) is not the run page's", kind)
		}
		if strings.Contains(p, "<script") || regexp.MustCompile(`(?i)(src|href)\s*=`).MatchString(p) {
			t.Errorf("the %s page loads or runs something", kind)
		}
	}
	if !strings.Contains(CSP, "default-src 'none'") || strings.Contains(CSP, "script-src") || strings.Count(CSP, ";") != 1 {
		t.Errorf("policy %q allows more than the page's inline style", CSP)
	}
}

// Names and output are untrusted: a bench, a language, a side, a detail
// or a host that holds markup is shown as text on every page.
func TestHostileTextEscapedOnEveryPage(t *testing.T) {
	const evil = `<script>alert(1)</script><img src=x onerror=alert(2)>"'&`
	dir := t.TempDir()
	rewrite := func(path string, edit func(map[string]any)) string {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var raw map[string]any
		if err := json.Unmarshal(data, &raw); err != nil {
			t.Fatal(err)
		}
		edit(raw)
		out, _ := json.Marshal(raw)
		p := filepath.Join(dir, filepath.Base(path))
		if err := os.WriteFile(p, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	run := rewrite(fixture, func(r map[string]any) {
		b := r["benches"].([]any)[0].(map[string]any)
		b["name"], b["status"], b["verdict"] = evil, "regression", evil
		r["warnings"] = []any{evil}
		r["host"].(map[string]any)["cpu_model"] = evil
	})
	ab := rewrite(abFixture, func(r map[string]any) {
		r["a"], r["b"] = evil, evil
		b := r["benches"].([]any)[0].(map[string]any)
		b["name"], b["detail"], b["verdict"] = evil, evil, "slower"
	})
	xp := rewrite(xprocFixture, func(r map[string]any) {
		row := r["variants"].(map[string]any)["small"].([]any)[2].(map[string]any)
		row["title"], row["detail"] = evil, evil
		r["notes"] = []any{evil}
	})
	for _, p := range []string{run, ab, xp} {
		page := pageOfFile(t, p)
		for _, bad := range []string{"<script", "<img", "onerror=alert(2)>"} {
			if strings.Contains(page, bad) {
				t.Errorf("the page of %s carries %q unescaped", filepath.Base(p), bad)
			}
		}
		if !strings.Contains(page, "&lt;script&gt;alert(1)&lt;/script&gt;") {
			t.Errorf("the page of %s does not show the hostile name as text", filepath.Base(p))
		}
	}
}

// A bench no language measured gets no axis, and neither does a category
// none of whose benches any language measured: the page says "No data".
func TestNoAxisWithoutData(t *testing.T) {
	r := &report.Report{Subject: "c", Settings: report.Settings{Languages: []string{"c", "go"}},
		Categories: []report.Category{{Name: "x", Title: "Empty", Benches: []string{"nothing"}}, {Name: "y", Title: "Half", Benches: []string{"some", "none"}}},
		Benches: []*report.Bench{
			{Name: "nothing", Status: "run_failed", SubjectResult: &report.Lang{Status: "run_failed"}, Comparatives: map[string]*report.Lang{"go": {Status: "build_failed"}}},
			{Name: "some", Status: "ok", SubjectResult: &report.Lang{Status: "ok", ElapsedNsMedian: 2000, ElapsedNsSamples: []int64{1900, 2000, 2100}},
				Comparatives: map[string]*report.Lang{"go": {Status: "ok", ElapsedNsMedian: 4000, ElapsedNsSamples: []int64{3900, 4000, 4100}}}},
			{Name: "none", Status: "run_failed", SubjectResult: &report.Lang{Status: "run_failed"}},
		}}
	var b bytes.Buffer
	if err := Render(&b, []*Run{RunOf("x.json", r)}); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if n := strings.Count(page, `class="chart ratio-chart"`); n != 1 {
		t.Errorf("%d ratio charts, want 1 (the Empty category has no data)", n)
	}
	if n := strings.Count(page, `class="chart strip-plot"`); n != 1 {
		t.Errorf("%d strip plots, want 1 (only some was measured)", n)
	}
	for _, w := range []string{"No data: no language measured a bench of this category.", "No data: no language measured a sample of nothing.", "No data: no language measured a sample of none."} {
		if !strings.Contains(page, w) {
			t.Errorf("the page does not say %q", w)
		}
	}
	if !strings.Contains(page, "4.00 µs (2.00×)") {
		t.Errorf("the medians table lacks go's cell on some")
	}
}

// The ab and xproc pages in headless Chromium: the same policy as the run
// page in the DOM, no console message, each regression's size in its
// "Needs attention" row and the figures in a table; and the policy holds:
// a script and an image slipped into a page neither run nor load.
func TestEveryPageInChromium(t *testing.T) {
	chromium := findChromium(t)
	dir := t.TempDir()
	art := artifacts(t)
	csp := map[string]string{}
	docs := map[string]*html.Node{}
	for kind, src := range map[string]string{"run": fixture, "ab": abFixture, "xproc": xprocFixture} {
		p := filepath.Join(dir, kind+".html")
		if err := os.WriteFile(p, []byte(pageOfFile(t, src)), 0o644); err != nil {
			t.Fatal(err)
		}
		dom, logs := chrome(t, chromium, dir, "--dump-dom", "file://"+p)
		if msgs := consoleLines(logs); len(msgs) > 0 {
			t.Errorf("%s page: console messages:\n%s", kind, strings.Join(msgs, "\n"))
		}
		docs[kind] = parseDOM(t, dom)
		csp[kind] = cspOf(docs[kind])
		shot := filepath.Join(art, "report-"+kind+".png")
		os.Remove(shot)
		chrome(t, chromium, dir, "--hide-scrollbars", "--window-size=1000,1600", "--screenshot="+shot, "file://"+p)
		t.Logf("screenshot: %s", shot)
	}
	for kind, c := range csp {
		if c != CSP || c != csp["run"] {
			t.Errorf("the %s page's policy in the DOM is %q, the run page's %q", kind, c, csp["run"])
		}
	}

	// ab: the slower bench's row says its ratio B/A, its interval and the
	// two medians; the table holds every bench.
	ab := docs["ab"]
	problems := all(ab, "table", "id=problems")
	if len(problems) != 1 {
		t.Fatalf("ab page: %d attention tables", len(problems))
	}
	row := rowOf(problems[0], "fn_modular", "slower")
	t.Logf("ab attention row: %q", row)
	if row == nil || !strings.Contains(row[3], "1.10× (+10.0%) [99.5%: 1.08–1.12]") || !strings.Contains(row[3], "A 1.00 ms → B 1.10 ms") {
		t.Errorf("ab's slower row does not say its size: %q", row)
	}
	if tb := all(ab, "table", "class=medians"); len(tb) != 1 || rowOf(tb[0], "fn_call", "1.004 [0.995, 1.012]") == nil || len(all(tb[0], "caption")) != 1 {
		t.Errorf("ab page: no table of the ratios with fn_call's")
	}
	// xproc: each variant's table, the failed pair first in attention.
	xp := docs["xproc"]
	if tb := all(xp, "table", "class=medians"); len(tb) != 2 {
		t.Errorf("xproc page: %d variant tables, want 2", len(tb))
	}
	if p := all(xp, "table", "id=problems"); len(p) != 1 || !strings.Contains(text(p[0]), "build_failed") {
		t.Errorf("xproc page: the failed pair is not in Needs attention")
	}

	// The policy holds: a script and an image put into a page are refused.
	page, _ := os.ReadFile(filepath.Join(dir, "ab.html"))
	planted := strings.Replace(string(page), "</body>", `<script>document.title="script ran"</script><img id="planted" src="http://127.0.0.1:9/x.png"></body>`, 1)
	p := filepath.Join(dir, "planted.html")
	os.WriteFile(p, []byte(planted), 0o644)
	dom, logs := chrome(t, chromium, dir, "--dump-dom", "file://"+p)
	if strings.Contains(dom, "<title>script ran</title>") {
		t.Errorf("a script in the page ran: the policy does not hold")
	}
	if msgs := consoleLines(logs); len(msgs) == 0 || !strings.Contains(strings.Join(msgs, "\n"), "Content Security Policy") {
		t.Errorf("no refusal by the policy on the console:\n%s", strings.Join(msgs, "\n"))
	} else {
		t.Logf("refused: %d console lines, e.g. %.160s", len(msgs), msgs[0])
	}
}

// ab's verdict is its worst bench's: all faster says faster, one slower
// among them says slower.
func TestABVerdictIsTheWorstBench(t *testing.T) {
	for _, c := range []struct {
		verdicts []outcome.Status
		want     string
	}{
		{[]outcome.Status{outcome.Faster, outcome.Faster}, "verdict: faster"},
		{[]outcome.Status{outcome.Faster, outcome.Same}, "verdict: faster"},
		{[]outcome.Status{outcome.Same, outcome.Slower, outcome.Unresolved}, "verdict: slower"},
	} {
		r := &report.Result{A: "a", B: "b"}
		for i, v := range c.verdicts {
			r.Benches = append(r.Benches, report.ABBench{Name: fmt.Sprint("b", i), Lang: "c", Verdict: v, Ratio: 1, RatioLow: 0.9, RatioHigh: 1.1, MedianA: 1e6, MedianB: 1e6})
		}
		var b bytes.Buffer
		if err := ABPage(&b, r); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), c.want+"<") {
			t.Errorf("%v: page lacks %q", c.verdicts, c.want)
		}
	}
}
