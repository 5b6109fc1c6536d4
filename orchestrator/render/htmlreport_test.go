package render

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/report"
)

// fixture is a real run of this machine (C as subject, every other
// language as comparative), trimmed to ten benches in five categories.
const fixture = "../report/testdata/run-c.json"

// laterRun derives a second report from the fixture, as a later release
// would write it: the subject 10% slower (30% on loop_overhead, a
// regression with the gate's full check: medians, ratio, noise, why), one
// comparative that no longer builds, and the verdict fields of the
// noise-derived gate (a nested verdict object, an unknown status, a band,
// a p-value, a memory verdict).
func laterRun(t *testing.T, dir string) string {
	t.Helper()
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	raw["generated_at"] = "2026-12-10T09:00:00Z"
	raw["status"] = "regression"
	imgs := raw["images"].(map[string]any)
	imgs["c"].(map[string]any)["version"] = "Debian clang version 19.1.8"
	for _, bv := range raw["benches"].([]any) {
		b := bv.(map[string]any)
		subj, ok := b["subject_result"].(map[string]any)
		if !ok {
			continue
		}
		base := subj["elapsed_ns_median"].(float64)
		slower := 1.1
		if b["name"] == "loop_overhead" {
			slower = 1.3
		}
		med := math.Round(base * slower)
		subj["elapsed_ns_median"] = med
		b["elapsed_ns_median"] = med
		b["baseline_elapsed_ns"] = base
		switch b["name"] {
		case "loop_overhead":
			b["status"] = "regression"
			b["time_verdict"] = map[string]any{"status": "regression", "band": 0.08, "p": 0.004,
				"median": med, "baseline": base, "ratio": med / base, "noise": 0.01, "band_from": "tolerance",
				"why": "median +30.0% over the baseline, over its 8.0% band, p = 0.004"}
			b["mem_verdict"] = map[string]any{"status": "ok", "band": 0.05}
		case "fn_call":
			b["status"] = "inconclusive"
			b["time_verdict"] = map[string]any{"status": "inconclusive", "band": 0.12, "p": 0.2}
		case "json_parse":
			b["status"] = "suspicious_new_status"
			b["time_verdict"] = map[string]any{"status": "ok", "band": 0.3}
			b["mem_verdict"] = map[string]any{"status": "mem_regression", "band": 0.05}
			b["comparatives"].(map[string]any)["go"].(map[string]any)["status"] = "build_failed"
			b["comparatives"].(map[string]any)["go"].(map[string]any)["build_error"] = "json_parse.go:12: undefined: foo"
		}
	}
	out, _ := json.MarshalIndent(raw, "", " ")
	p := filepath.Join(dir, "run-20261210T090000Z-later.json")
	if err := os.WriteFile(p, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestGateFields(t *testing.T) {
	dir := t.TempDir()
	run, err := Load(laterRun(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	g := run.Gate["loop_overhead"]
	if g.Band != "±8.0%" || g.PValue == nil || *g.PValue != 0.004 || len(g.Metrics) != 1 || g.Metrics[0] != (MetricGate{Name: "memory", Status: "ok", Band: "±5.0%"}) || g.Status != "" {
		t.Errorf("time verdict = %+v", g)
	}
	g = run.Gate["json_parse"]
	if len(g.Metrics) != 1 || g.Metrics[0] != (MetricGate{Name: "memory", Status: "mem_regression", Band: "±5.0%"}) || g.Status != "ok" {
		t.Errorf("memory verdict = %+v", g)
	}
	if _, ok := run.Gate["vec_amortized"]; ok {
		t.Errorf("a bench without verdict fields has a gate: %+v", run.Gate["vec_amortized"])
	}
	old, err := Load(fixture)
	if err != nil {
		t.Fatal(err)
	}
	if len(old.Gate) != 0 {
		t.Errorf("a report from before the verdicts has gate fields: %+v", old.Gate)
	}
}

func TestProblemsFirstAndOrdered(t *testing.T) {
	run, err := Load(laterRun(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	ps := problems(run)
	var got []string
	for _, p := range ps {
		got = append(got, p.Bench+"/"+string(p.Status))
	}
	want := []string{"json_parse/build_failed", "loop_overhead/regression", "json_parse/mem_regression", "fn_call/inconclusive", "json_parse/suspicious_new_status"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("problems = %v\nwant       %v", got, want)
	}
}

func TestLogAxisTicks(t *testing.T) {
	a := newLogAxis([]float64{0.05, 2000}, 0, 100)
	ts := a.ticks(7)
	if len(ts) == 0 || len(ts) > 7 {
		t.Fatalf("ticks = %v", ts)
	}
	for _, v := range ts {
		if x := a.x(v); x < 0 || x > 100 {
			t.Errorf("tick %v at %v, outside the axis", v, x)
		}
	}
	if a.x(a.lo) != 0 || a.x(a.hi) != 100 {
		t.Errorf("axis ends map to %v, %v", a.x(a.lo), a.x(a.hi))
	}
}

// TestPageInChromium renders the fixture (and, for the trends, a later
// report) and opens the page in headless Chromium: no console message
// (the page's Content-Security-Policy turns any fetch from outside into
// one), one ratio chart per category, one strip plot per bench, a trend
// per bench the subject measured, the verdict in the DOM. A screenshot is
// kept under $HALEBENCH_ARTIFACTS (default <temp>/halebench-artifacts).
func TestPageInChromium(t *testing.T) {
	chromium := findChromium(t)
	dir := t.TempDir()
	later := laterRun(t, dir)
	runs, err := LoadAll([]string{fixture, later}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(dir, "report.html")
	if err := WriteFile(page, runs); err != nil {
		t.Fatal(err)
	}
	html, _ := os.ReadFile(page)
	if m := regexp.MustCompile(`(?i)(src|href)\s*=\s*"[a-z]+:`).Find(html); m != nil {
		t.Errorf("the page refers outside itself: %s", m)
	}
	if bytes.Contains(html, []byte("<script")) {
		t.Errorf("the page has a script")
	}

	dom, logs := chrome(t, chromium, dir, "--dump-dom", "file://"+page)
	if msgs := consoleLines(logs); len(msgs) > 0 {
		t.Errorf("console messages:\n%s", strings.Join(msgs, "\n"))
	}
	r := runs[len(runs)-1].Report
	// A chart only where there is data: a category some language measured,
	// a bench with a sample; every other one says "No data" instead.
	cats, withData, withSubject := 0, 0, 0
	for _, c := range r.Categories {
		measured := false
		for _, n := range c.Benches {
			for _, b := range r.Benches {
				if b.Name == n && figures(b.SubjectResult).Median > 0 {
					measured = true
				}
			}
		}
		if measured {
			cats++
		}
	}
	for _, b := range r.Benches {
		for _, l := range b.Langs(r.Subject) {
			if len(figures(l).Samples) > 0 {
				withData++
				break
			}
		}
		if b.SubjectResult != nil && b.SubjectResult.ElapsedNsMedian > 0 {
			withSubject++
		}
	}
	// a ratio chart per category, and one per sampled metric's table
	metricCharts := strings.Count(dom, `class="metric"`)
	for class, want := range map[string]int{"chart ratio-chart": cats + metricCharts, "chart strip-plot": withData, "chart trend-chart": withSubject} {
		if got := strings.Count(dom, `class="`+class+`"`); got != want {
			t.Errorf("%d %q in the DOM, want %d", got, class, want)
		}
	}
	if n := strings.Count(dom, "No data: no language measured a sample of"); n != len(r.Benches)-withData || n == 0 {
		t.Errorf("%d benches say they have no data, want %d (and the fixture has some)", n, len(r.Benches)-withData)
	}
	if !regexp.MustCompile(`id="verdict"[^>]*>verdict: regression<`).MatchString(dom) {
		t.Errorf("verdict not in the DOM")
	}
	for _, s := range []string{"build_failed", "inconclusive", "suspicious_new_status", "mem_regression", "band ±8.0%", "p = 0.004", "v19.1.8", "2026-12-10"} {
		if !strings.Contains(dom, s) {
			t.Errorf("%q not in the DOM", s)
		}
	}

	// The +30% regression's row in "Needs attention" says how much: the
	// ratio with its interval, baseline → now, the metric and its unit.
	doc := parseDOM(t, dom)
	problems := all(doc, "table", "id=problems")
	if len(problems) != 1 {
		t.Fatalf("%d tables id=problems in the DOM", len(problems))
	}
	var lo *report.Bench
	for _, b := range r.Benches {
		if b.Name == "loop_overhead" {
			lo = b
		}
	}
	base, now := report.FormatNs(*lo.BaselineElapsedNs), report.FormatNs(lo.SubjectResult.ElapsedNsMedian)
	row := rowOf(problems[0], "loop_overhead", "regression")
	want := []string{"time", "1.30× (+30.0%)", "[95%: 1.27–1.33]", base + " → " + now, "median time, ns"}
	if row == nil {
		t.Fatalf("no regression row for loop_overhead in Needs attention")
	}
	t.Logf("attention row: %q", row)
	for _, w := range want {
		if !strings.Contains(row[3], w) {
			t.Errorf("the regression's size cell %q lacks %q", row[3], w)
		}
	}
	if !strings.Contains(row[4], "+30.0% over the baseline") {
		t.Errorf("the regression's detail cell is %q", row[4])
	}

	// A table of medians per category, with a caption and scoped headers,
	// holding each language's median as the grid writes it.
	tables := all(doc, "table", "class=medians")
	if got, want := len(tables), len(categoryViews(runs)); got != want || got == 0 {
		t.Errorf("%d tables of medians in the DOM, want one per category (%d)", got, want)
	}
	var langTitles []string
	for _, l := range report.Langs(r) {
		langTitles = append(langTitles, l.Title)
	}
	found := false
	for _, tb := range tables {
		if len(all(tb, "caption")) != 1 || len(all(tb, "th", "scope=col")) != len(langTitles)+1 || len(all(tb, "th", "scope=row")) == 0 {
			t.Errorf("a medians table lacks its caption or scoped headers: %s", text(tb))
		}
		head := cells(all(tb, "tr")[0])
		if strings.Join(head[1:], ",") != strings.Join(langTitles, ",") {
			t.Errorf("medians table's columns %q, want %q", head, langTitles)
		}
		if row := rowOf(tb, "loop_overhead"); row != nil {
			found = true
			t.Logf("medians row: %q", row)
			if !strings.HasPrefix(row[1], now) {
				t.Errorf("the subject's cell is %q, want its median %s", row[1], now)
			}
			for i, l := range report.Langs(r)[1:] {
				res := report.LangResult(r, lo, l.Name)
				if m := figures(res).Median; m > 0 && !strings.HasPrefix(row[i+2], report.FormatNs(m)+" (") {
					t.Errorf("%s's cell is %q, want its median %s and its ratio", l.Name, row[i+2], report.FormatNs(m))
				}
			}
		}
	}
	if !found {
		t.Errorf("no row for loop_overhead in any medians table")
	}
	// No figure is only in a chart's tooltip: every figure an SVG title
	// holds is in the page's text outside the charts too (the tables).
	outside := textOutside(doc, "svg")
	figureRe := regexp.MustCompile(`[0-9][0-9.]*(×| ns| µs| ms| s)`)
	checked := 0
	for _, title := range all(doc, "title") {
		if title.Parent == nil || title.Parent.Data == "head" {
			continue
		}
		for _, f := range figureRe.FindAllString(text(title), -1) {
			checked++
			if !strings.Contains(outside, f) {
				t.Errorf("%q (tooltip %q) is only in a chart", f, text(title))
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d tooltip figures checked", checked)
	}

	// Languages are told by shape and name, not colour alone: each
	// category's key names each beside its marker, and no text is drawn in
	// a language's colour.
	keys := all(doc, "p", "class=key")
	if len(keys) != len(tables) {
		t.Errorf("%d keys, want one per category (%d)", len(keys), len(tables))
	}
	for _, key := range keys {
		if text(key) != strings.Join(langTitles, " ") || len(all(key, "svg")) != len(langTitles) {
			t.Errorf("the key %q does not name each language beside its marker", text(key))
		}
	}
	for _, el := range all(doc, "text") {
		if _, ok := attr(el, "fill"); ok {
			t.Errorf("SVG text %q has a fill of its own (a language's colour?)", text(el))
		}
	}

	art := artifacts(t)
	for _, shot := range []struct{ name, size string }{{"report-desktop.png", "1000,3000"}, {"report-phone.png", "390,2400"}} {
		p := filepath.Join(art, shot.name)
		os.Remove(p)
		_, logs := chrome(t, chromium, dir, "--hide-scrollbars", "--window-size="+shot.size, "--screenshot="+p, "file://"+page)
		if msgs := consoleLines(logs); len(msgs) > 0 {
			t.Errorf("console messages (%s):\n%s", shot.name, strings.Join(msgs, "\n"))
		}
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Fatalf("no screenshot at %s: %v\n%s", p, err, logs)
		}
		t.Logf("screenshot: %s", p)
	}
	keep := filepath.Join(art, "report.html")
	os.WriteFile(keep, html, 0o644)
	t.Logf("page: %s (%d bytes)", keep, len(html))
}

// TestPageWithoutSubject renders a report whose subject had no data: the
// category charts fall back to medians, and nothing divides by zero.
func TestPageWithoutSubject(t *testing.T) {
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	var r report.Report
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	r.Subject, r.SubjectStatus, r.SubjectReason = "hale", "unavailable", "no hale source tree"
	r.Settings.Languages = append(r.Settings.Languages, "hale")
	for _, b := range r.Benches {
		if b.SubjectResult != nil {
			b.Comparatives["c"] = b.SubjectResult
			b.SubjectResult = nil
		}
		b.Status = "subject_unavailable"
		for _, l := range b.Comparatives {
			l.RatioVsSubject = nil
		}
	}
	var out bytes.Buffer
	if err := Render(&out, []*Run{{Path: "x.json", Report: &r}}); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, bad := range []string{"NaN", "Inf"} {
		if strings.Contains(s, bad) {
			t.Errorf("page holds %s", bad)
		}
	}
	if !strings.Contains(s, "no Hale data, so no ratios") || !strings.Contains(s, "verdict: ok: nothing gated (subject unavailable)") {
		t.Errorf("page does not say the subject had no data")
	}
	if strings.Contains(s, `<td>subject_unavailable`) {
		t.Errorf("subject_unavailable listed as a problem per bench")
	}
}

// artifacts is where the Chromium tests leave their screenshots:
// $HALEBENCH_ARTIFACTS, default <temp>/halebench-artifacts.
func artifacts(t *testing.T) string {
	art := os.Getenv("HALEBENCH_ARTIFACTS")
	if art == "" {
		art = filepath.Join(os.TempDir(), "halebench-artifacts")
	}
	if err := os.MkdirAll(art, 0o755); err != nil {
		t.Fatal(err)
	}
	return art
}

func findChromium(t *testing.T) string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("CI=true and no chromium on PATH: `make deps` installs Debian's chromium")
	}
	t.Skip("needs headless Chromium (Debian package chromium; `make deps` installs it)")
	return ""
}

// chrome runs headless Chromium once and returns its stdout and its log.
func chrome(t *testing.T, bin, dir string, args ...string) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	base := []string{"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--user-data-dir=" + filepath.Join(dir, "chromium-profile"), "--enable-logging=stderr", "--v=0"}
	cmd := exec.CommandContext(ctx, bin, append(base, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium %v: %v\n%s", args, err, stderr.String())
	}
	return stdout.String(), stderr.String()
}

// consoleLines are the page's console messages in Chromium's log.
func consoleLines(log string) []string {
	var out []string
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, ":CONSOLE") {
			out = append(out, l)
		}
	}
	return out
}

// A bench the baseline holds whose subject program is gone fails the run:
// the page lists it first and marks it bad; without a baseline it is quiet.
func TestNoSubjectSourceWithBaselineIsAProblem(t *testing.T) {
	base := int64(1000)
	r := &report.Report{Subject: "hale", Benches: []*report.Bench{
		{Name: "lost", Status: "no_subject_source", BaselineElapsedNs: &base},
		{Name: "never", Status: "no_subject_source"},
		{Name: "slow", Status: "inconclusive"},
	}}
	ps := problems(&Run{Report: r})
	if len(ps) != 2 || ps[0].Bench != "lost" || ps[1].Bench != "slow" {
		t.Fatalf("problems = %+v", ps)
	}
	if c := benchClass(r.Benches[0]); c != "bad" {
		t.Errorf("lost bench's class = %q", c)
	}
	if c := benchClass(r.Benches[1]); c != "muted" {
		t.Errorf("bench without subject or baseline: class %q", c)
	}
}
