package render

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
)

func ptr[T any](v T) *T { return &v }

// hostileName is bench text a hostile suite could hand the report: a
// GitHub workflow command, an Azure one, ANSI escapes, a CDATA end and HTML.
const hostileName = "::error::pwned\x1b[31m ##vso[task.setvariable variable=x]1 ]]> <img src=x>"

// sample is a run with one of each kind of bench: a regression, a run
// failure, an inconclusive, one with no baseline, a hostile failing one,
// two ok.
func sample() *report.Report {
	p := 0.0012
	return &report.Report{
		Schema: report.Schema, GeneratedAt: "2026-12-03T19:00:00Z", RunID: "run-1", Status: outcome.Failed,
		Subject: "hale", SubjectStatus: "available", Settings: report.Settings{Languages: []string{"hale", "go"}},
		Gate: report.Gate{Machine: "same"},
		Categories: []report.Category{{Name: "micro", Title: "Micro", Benches: []string{
			"fn_modular", "fn_crash", "fn_noisy", "fn_new", hostileName, "fn_a", "fn_b"}}},
		Benches: []*report.Bench{
			{Name: "fn_modular", Status: outcome.Regression, ElapsedNsMedian: ptr(int64(1_310_000)), BaselineElapsedNs: ptr(int64(1_000_000)),
				TimeVerdict: &report.Check{Status: outcome.Regression, Median: 1_310_000, Baseline: 1_000_000, Ratio: 1.31, Band: 0.05, BandFrom: "drift", P: &p,
					Why: "median +31.0% the baseline, over its ±5.0% band, p = 0.0012"},
				SubjectResult: &report.Lang{Status: outcome.OK, ElapsedNsMedian: 1_310_000, Comparable: true}},
			{Name: "fn_crash", Status: outcome.RunFailed, BaselineElapsedNs: ptr(int64(5)),
				SubjectResult: &report.Lang{Status: outcome.RunFailed, Detail: "exit 139 (SIGSEGV)\nstack…", Comparable: true}},
			{Name: "fn_noisy", Status: outcome.Inconclusive, ElapsedNsMedian: ptr(int64(2_000_000)), BaselineElapsedNs: ptr(int64(2_000_000)),
				Verdict:       "this run's median is known to ±12.0%, wider than the ±5.0% band",
				SubjectResult: &report.Lang{Status: outcome.OK, ElapsedNsMedian: 2_000_000, Comparable: true}},
			{Name: "fn_new", Status: outcome.NoBaseline, ElapsedNsMedian: ptr(int64(3_000_000)),
				Verdict:       "the baselines hold no figure for this bench",
				SubjectResult: &report.Lang{Status: outcome.OK, ElapsedNsMedian: 3_000_000, Comparable: true}},
			{Name: hostileName, Status: outcome.BadOutput, BaselineElapsedNs: ptr(int64(5)),
				SubjectResult: &report.Lang{Status: outcome.BadOutput, Detail: "::warning::x\n##[error]y\x1b]0;title\x07 ]]> </failure>", Comparable: true}},
			{Name: "fn_a", Status: outcome.OK, ElapsedNsMedian: ptr(int64(1_500_000_000)), BaselineElapsedNs: ptr(int64(1_500_000_000)),
				SubjectResult: &report.Lang{Status: outcome.OK, ElapsedNsMedian: 1_500_000_000, Comparable: true},
				Comparatives:  map[string]*report.Lang{"go": {Status: outcome.Timeout, Detail: "no result within 2m0s"}}},
			{Name: "fn_b", Status: outcome.OK, ElapsedNsMedian: ptr(int64(1000)), BaselineElapsedNs: ptr(int64(1000)),
				SubjectResult: &report.Lang{Status: outcome.OK, ElapsedNsMedian: 1000, Comparable: true}},
		},
	}
}

// The verdict line names the run's word, then each status's count, what a
// reader must look at first and by name with its figure.
func TestVerdictLine(t *testing.T) {
	got := Of(sample()).Line()
	want := "verdict failed — 1 bad_output (· ::error::pwned ##vso· [task.setvariable variable=x]1 ]]> <img src=x>), " +
		"1 run_failed (fn_crash), 1 regression (fn_modular +31.0% time), 1 inconclusive (fn_noisy +0.0% time), 1 no_baseline, 2 ok"
	if !strings.HasPrefix(got, "verdict failed — ") || !strings.Contains(got, "1 regression (fn_modular +31.0% time)") ||
		!strings.HasSuffix(got, "1 no_baseline, 2 ok") || !strings.Contains(got, "1 run_failed (fn_crash)") {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	// Failures come before the regression, the regression before the
	// inconclusive bench, and the quiet ones last.
	order := []string{"bad_output", "run_failed", "regression", "inconclusive", "no_baseline", "ok"}
	last := -1
	for _, w := range order {
		i := strings.Index(got, " "+w)
		if i < last {
			t.Fatalf("%s out of order in %s", w, got)
		}
		last = i
	}
	assertDefanged(t, "verdict line", got)

	r := sample()
	r.Benches = r.Benches[5:]
	r.Status = outcome.OK
	if got := Of(r).Line(); got != "verdict ok — 2 ok" {
		t.Fatalf("all ok: %q", got)
	}
	r.Status = ""
	r.Benches = []*report.Bench{sample().Benches[0]}
	if got := Of(r).Line(); got != "verdict regression — 1 regression (fn_modular +31.0% time)" {
		t.Fatalf("a report without a status: %q", got)
	}
}

// Over three benches of one status, the line names three and counts the rest.
func TestVerdictLineNamesThree(t *testing.T) {
	r := &report.Report{Status: outcome.Inconclusive}
	for _, n := range []string{"a", "b", "c", "d", "e"} {
		r.Benches = append(r.Benches, &report.Bench{Name: n, Status: outcome.Inconclusive})
	}
	if got := Of(r).Line(); got != "verdict inconclusive — 5 inconclusive (a, b, c, 2 more)" {
		t.Fatalf("got %q", got)
	}
}

type parsedCase struct {
	Name      string `xml:"name,attr"`
	Classname string `xml:"classname,attr"`
	Time      string `xml:"time,attr"`
	Failure   *struct {
		Message string `xml:"message,attr"`
		Text    string `xml:",chardata"`
	} `xml:"failure"`
	Skipped *struct {
		Message string `xml:"message,attr"`
	} `xml:"skipped"`
}

type parsedSuites struct {
	Tests  int `xml:"tests,attr"`
	Suites []struct {
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Skipped  int          `xml:"skipped,attr"`
		Cases    []parsedCase `xml:"testcase"`
	} `xml:"testsuite"`
}

// Each subject bench is one test case: failing and regressing ones are
// failures with their figures, unjudged ones skipped with why, the rest
// pass; the counts are the suite's attributes.
func TestJUnitCases(t *testing.T) {
	var buf bytes.Buffer
	if err := JUnit(&buf, sample()); err != nil {
		t.Fatal(err)
	}
	var doc parsedSuites
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatalf("JUnit does not parse: %v\n%s", err, buf.String())
	}
	if len(doc.Suites) != 1 {
		t.Fatalf("%d suites, want 1", len(doc.Suites))
	}
	s := doc.Suites[0]
	if s.Tests != 7 || s.Failures != 3 || s.Skipped != 2 || doc.Tests != 7 {
		t.Fatalf("counts: tests %d failures %d skipped %d\n%s", s.Tests, s.Failures, s.Skipped, buf.String())
	}
	byName := map[string]parsedCase{}
	for _, c := range s.Cases {
		if c.Classname != "halebench.hale" {
			t.Errorf("%s: classname %q", c.Name, c.Classname)
		}
		byName[c.Name] = c
	}
	reg := byName["fn_modular"]
	if reg.Failure == nil || reg.Time != "0.001310" {
		t.Fatalf("regression: %+v", reg)
	}
	for _, f := range []string{"regression: time median 1.31 ms vs baseline 1.00 ms", "ratio 1.310 (+31.0%)", "band ±5.0% (drift)", "p = 0.0012"} {
		if !strings.Contains(reg.Failure.Message, f) {
			t.Errorf("regression message %q lacks %q", reg.Failure.Message, f)
		}
	}
	if c := byName["fn_crash"]; c.Failure == nil || c.Failure.Message != "run_failed: exit 139 (SIGSEGV)" || !strings.Contains(c.Failure.Text, "stack…") {
		t.Errorf("run failure: %+v", c.Failure)
	}
	if c := byName["fn_noisy"]; c.Skipped == nil || !strings.HasPrefix(c.Skipped.Message, "inconclusive: this run's median is known to ±12.0%") {
		t.Errorf("inconclusive: %+v", c)
	}
	if c := byName["fn_new"]; c.Skipped == nil || c.Skipped.Message != "no_baseline: the baselines hold no figure for this bench" {
		t.Errorf("no baseline: %+v", c)
	}
	if c := byName["fn_a"]; c.Failure != nil || c.Skipped != nil || c.Time != "1.500000" {
		t.Errorf("ok bench (a sibling's timeout does not fail the subject's case): %+v", c)
	}
}

// Under --strict an inconclusive bench fails the gate, so its case fails.
func TestJUnitStrictInconclusiveFails(t *testing.T) {
	r := sample()
	r.Gate.Strict = true
	var buf bytes.Buffer
	if err := JUnit(&buf, r); err != nil {
		t.Fatal(err)
	}
	var doc parsedSuites
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, c := range doc.Suites[0].Cases {
		if c.Name == "fn_noisy" && c.Failure == nil {
			t.Fatalf("strict inconclusive is not a failure: %+v", c)
		}
	}
	if doc.Suites[0].Failures != 4 {
		t.Fatalf("failures %d, want 4", doc.Suites[0].Failures)
	}
}

// A run whose subject had no toolchain: every case is skipped with the
// subject's reason, and nothing fails.
func TestJUnitSubjectUnavailable(t *testing.T) {
	r := &report.Report{Status: outcome.OK, Subject: "hale", SubjectStatus: string(outcome.Unavailable),
		SubjectReason: "no hale source at ../hale (give --hale-src or --hale-git)",
		Benches:       []*report.Bench{{Name: "fn_a", Status: outcome.SubjectUnavailable}, {Name: "fn_b", Status: outcome.SubjectUnavailable}}}
	var buf bytes.Buffer
	if err := JUnit(&buf, r); err != nil {
		t.Fatal(err)
	}
	var doc parsedSuites
	if err := xml.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	s := doc.Suites[0]
	if s.Skipped != 2 || s.Failures != 0 {
		t.Fatalf("skipped %d failures %d", s.Skipped, s.Failures)
	}
	for _, c := range s.Cases {
		if c.Skipped == nil || c.Skipped.Message != "subject_unavailable: no hale source at ../hale (give --hale-src or --hale-git)" {
			t.Fatalf("%+v", c)
		}
	}
	if got := Of(r).Line(); got != "verdict ok — 2 subject_unavailable" {
		t.Fatalf("verdict %q", got)
	}
	var md bytes.Buffer
	Summary(&md, r)
	if !strings.Contains(md.String(), "The subject hale was unavailable: no hale source at ../hale") {
		t.Fatalf("summary does not say the subject was unavailable:\n%s", md.String())
	}
}

// Bench text reaches no output as a CI command, an escape sequence, a
// CDATA end or markup.
func TestHostileTextIsDefanged(t *testing.T) {
	r := sample()
	var j, md bytes.Buffer
	if err := JUnit(&j, r); err != nil {
		t.Fatal(err)
	}
	Summary(&md, r)
	for name, out := range map[string]string{"junit": j.String(), "summary": md.String(), "verdict": Of(r).Line()} {
		assertDefanged(t, name, out)
	}
	if strings.Contains(j.String(), "]]>") || strings.Contains(j.String(), "</failure> ") {
		t.Errorf("junit holds raw bench markup:\n%s", j.String())
	}
	if strings.Contains(md.String(), "<img") || strings.Contains(md.String(), "x]1 ]]") {
		t.Errorf("summary holds raw bench HTML:\n%s", md.String())
	}
	var doc parsedSuites
	if err := xml.Unmarshal(j.Bytes(), &doc); err != nil {
		t.Fatalf("hostile text broke the XML: %v", err)
	}
	if len(doc.Suites[0].Cases) != 7 {
		t.Fatalf("hostile text changed the cases: %d", len(doc.Suites[0].Cases))
	}
}

// assertDefanged fails when out holds an escape character, a line a GitHub
// runner would obey, or an Azure command marker.
func assertDefanged(t *testing.T, name, out string) {
	t.Helper()
	if strings.ContainsAny(out, "\x1b\x07\x9b") {
		t.Errorf("%s holds an escape character: %q", name, out)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "::") {
			t.Errorf("%s: a runner would obey %q", name, l)
		}
		low := strings.ToLower(l)
		if strings.Contains(low, "##vso[") || strings.Contains(low, "##[") {
			t.Errorf("%s: an Azure marker in %q", name, l)
		}
	}
}

// The summary starts with the verdict, lists what needs attention with the
// worst first (a sibling's timeout included), and ends with the grid.
func TestSummaryOrder(t *testing.T) {
	var md bytes.Buffer
	Summary(&md, sample())
	out := md.String()
	first, _, _ := strings.Cut(out, "\n")
	if !strings.HasPrefix(first, "### halebench verdict failed — ") {
		t.Fatalf("first line is not the verdict: %q", first)
	}
	att := strings.Index(out, "**Needs attention**")
	grid := strings.Index(out, "### Micro")
	if att < 0 || grid < att {
		t.Fatalf("attention list at %d, grid at %d:\n%s", att, grid, out)
	}
	list := out[att:grid]
	for _, want := range []string{"**fn_crash** — run_failed (gate): exit 139 (SIGSEGV)",
		"**fn_modular** — regression (gate), +31.0% time: median +31.0% the baseline",
		"**fn_noisy** — inconclusive (gate)", "**fn_a** — go: timeout: no result within 2m0s"} {
		if !strings.Contains(list, want) {
			t.Errorf("attention list lacks %q:\n%s", want, list)
		}
	}
	if strings.Index(list, "fn_crash") > strings.Index(list, "fn_modular") || strings.Index(list, "fn_modular") > strings.Index(list, "fn_noisy") {
		t.Errorf("attention list not worst first:\n%s", list)
	}
	if strings.Contains(list, "fn_new") || strings.Contains(list, "fn_b") {
		t.Errorf("quiet benches listed:\n%s", list)
	}
}
