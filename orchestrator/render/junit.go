package render

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// The JUnit XML shape that Jenkins, GitLab, GitHub's test-report actions
// and junitparser all read: testsuites holding one testsuite of testcases,
// each passing, or holding a failure or a skipped element.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr,omitempty"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string       `xml:"name,attr"`
	Classname string       `xml:"classname,attr"`
	Time      string       `xml:"time,attr"`
	Failure   *junitResult `xml:"failure"`
	Skipped   *junitResult `xml:"skipped"`
}

type junitResult struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",chardata"`
}

// bodyCap bounds the text under a failure: a bench's detail can be long.
const bodyCap = 4000

// JUnit writes the report as JUnit XML: one testsuite named for the
// subject, one testcase per subject bench (classname halebench.<subject>,
// time the subject's median in seconds). A bench whose status fails or
// regresses the run is a failure carrying its figures (and, under
// --strict, an inconclusive one too); what was not judged (inconclusive,
// no baseline, the subject unavailable, another machine) is skipped with
// the reason; the rest pass.
func JUnit(w io.Writer, r *report.Report) error {
	subject := termtext.Line(r.Subject)
	s := junitSuite{Name: "halebench." + subject, Timestamp: termtext.Line(r.GeneratedAt), Properties: properties(r)}
	var total float64
	for _, b := range r.Benches {
		c, secs := testCase(r, b, subject)
		total += secs
		switch {
		case c.Failure != nil:
			s.Failures++
		case c.Skipped != nil:
			s.Skipped++
		}
		s.Cases = append(s.Cases, c)
	}
	s.Tests, s.Time = len(s.Cases), seconds(total)
	doc := junitSuites{Name: "halebench", Tests: s.Tests, Failures: s.Failures, Skipped: s.Skipped, Time: s.Time, Suites: []junitSuite{s}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return fmt.Errorf("writing JUnit XML: %w", err)
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("writing JUnit XML: %w", err)
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// properties are what a reader of the test report needs to know of the run.
func properties(r *report.Report) []junitProperty {
	p := []junitProperty{
		{"run_id", r.RunID},
		{"status", string(r.Status)},
		{"subject", report.SubjectVersion(r)},
		{"subject_status", r.SubjectStatus},
		{"baselines_machine", r.Gate.Machine},
		{"host", strings.Trim(r.Host.CPUModel+", "+r.Host.Kernel, ", ")},
		{"flagged_by", strings.Join(r.FlaggedBy, ",")},
	}
	for i := range p {
		p[i].Value = termtext.Line(p[i].Value)
	}
	return p
}

// testCase is one subject bench, and its time in seconds.
func testCase(r *report.Report, b *report.Bench, subject string) (junitCase, float64) {
	secs := float64(subjectMedian(b)) / 1e9
	c := junitCase{Name: termtext.Line(b.Name), Classname: "halebench." + subject, Time: seconds(secs)}
	sev := benchSeverity(b)
	switch {
	case sev.FailsGate(r.Gate.Strict):
		c.Failure = &junitResult{Message: failureMessage(b), Type: word(b.Status), Text: ciClip(termtext.Clean(details(r, b)))}
	case sev != outcome.Fine:
		c.Skipped = &junitResult{Message: word(b.Status) + reasonSuffix(r, b)}
	}
	return c, secs
}

// subjectMedian is the subject's median elapsed on a bench, 0 when none.
func subjectMedian(b *report.Bench) int64 {
	if b.ElapsedNsMedian != nil && *b.ElapsedNsMedian > 0 {
		return *b.ElapsedNsMedian
	}
	if b.SubjectResult != nil && b.SubjectResult.ElapsedNsMedian > 0 {
		return b.SubjectResult.ElapsedNsMedian
	}
	return 0
}

func seconds(s float64) string { return fmt.Sprintf("%.6f", s) }

// failureMessage is a failing bench in one line: its status and the
// figures the gate held it to, or what went wrong.
func failureMessage(b *report.Bench) string {
	parts := countFigures(b)
	for _, m := range judge.All() {
		if c := b.CheckOf(m); c != nil && c.Baseline > 0 && (m.Headline || c.Status.Severity() >= outcome.Attention) {
			parts = append(parts, m.Name+" "+checkFigures(c, formatOf(m)))
		}
	}
	if len(parts) == 0 {
		if why := termtext.Headline(reason(b), 300); why != "" {
			parts = append(parts, why)
		}
	}
	if len(parts) == 0 {
		return word(b.Status)
	}
	return word(b.Status) + ": " + termtext.Line(strings.Join(parts, "; "))
}

// checkFigures are a gated quantity's figures: median against baseline,
// their ratio, the band and where it comes from, and the p-value.
func checkFigures(c *report.Check, format func(int64) string) string {
	s := fmt.Sprintf("median %s vs baseline %s, ratio %.3f (%+.1f%%), band ±%.1f%%",
		format(c.Median), format(c.Baseline), c.Ratio, (c.Ratio-1)*100, c.Band*100)
	if c.BandFrom != "" {
		s += " (" + c.BandFrom + ")"
	}
	if c.P != nil {
		s += fmt.Sprintf(", p = %.2g", *c.P)
	}
	return s
}

// formatOf is how metric m's figures are written: its format, or the
// number and its unit.
func formatOf(m *judge.Metric) func(int64) string {
	if m.Format != nil {
		return m.Format
	}
	return func(v int64) string { return fmt.Sprintf("%d %s", v, m.Unit) }
}

// details is the text under a failure: the judge's words and what the
// subject's job said (its detail, its build error), as they are stored.
func details(r *report.Report, b *report.Bench) string {
	var parts []string
	add := func(label, s string) {
		if s = strings.TrimSpace(s); s != "" {
			parts = append(parts, label+s)
		}
	}
	add("verdict: ", b.Verdict)
	for _, m := range judge.All() {
		if c := b.CheckOf(m); c != nil {
			add(m.Name+": ", c.Why)
		}
	}
	if res := b.SubjectResult; res != nil && res.Count != nil {
		add(judge.Instructions.Name+": ", string(res.Count.Verdict)+" "+res.Count.Reason)
	}
	if res := b.SubjectResult; res != nil {
		add(r.Subject+" detail: ", res.Detail)
		add(r.Subject+" build error: ", res.BuildError)
	}
	return strings.Join(parts, "\n")
}

// reason is why a bench is what it is, in the judge's words or the
// subject job's.
func reason(b *report.Bench) string {
	if b.Verdict != "" {
		return b.Verdict
	}
	for _, m := range judge.All() {
		if c := b.CheckOf(m); c != nil && c.Why != "" && c.Status == b.Status {
			return c.Why
		}
	}
	if b.SubjectResult != nil {
		if b.SubjectResult.Detail != "" {
			return b.SubjectResult.Detail
		}
		return b.SubjectResult.BuildError
	}
	return ""
}

// reasonSuffix is ": <why>" for a skipped bench, "" when nothing says why.
func reasonSuffix(r *report.Report, b *report.Bench) string {
	why := termtext.Headline(reason(b), 300)
	if why == "" && b.Status == outcome.SubjectUnavailable {
		why = termtext.Headline(r.SubjectReason, 300)
	}
	if why == "" {
		return ""
	}
	return ": " + termtext.Line(why)
}

func ciClip(s string) string { return termtext.Clip(s, bodyCap) }
