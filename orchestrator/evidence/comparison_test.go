package evidence

import (
	"bytes"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// Every name in the comparison comes from a report, the recorded one from
// a bundle made elsewhere: escape sequences, line breaks and CI commands in
// them reach the terminal as inert text.
func TestWriteComparisonCleansWhatReportsCarry(t *testing.T) {
	hostile := func() *report.Report {
		r := &report.Report{RunID: "run\n::add-mask::x", Subject: "c"}
		r.Host.Hostname = "vm\x1b]0;owned\x07"
		r.Host.CPUModel = "EPYC\u00a0##vso[task.setvariable variable=x]1"
		r.Benches = []*report.Bench{{Name: "count\x1b[2J\n##[error]forged", SubjectResult: &report.Lang{Status: "ok", ElapsedNsMedian: 1000}}}
		return r
	}
	var out bytes.Buffer
	if err := WriteComparison(&out, hostile(), hostile()); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if strings.ContainsAny(s, "\x1b\x07") || strings.Contains(s, "##vso[") || strings.Contains(s, "##[") {
		t.Fatalf("comparison carries raw text:\n%q", s)
	}
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "::") {
			t.Fatalf("a line a runner would obey: %q", line)
		}
	}
	if n := strings.Count(s, "\n"); n != 4 {
		t.Fatalf("%d lines, want 4 (two hosts, header, one row):\n%s", n, s)
	}
}

// A replayed cell shows its number whenever status says it carries one (a
// regression's too), and the status word otherwise.
func TestWriteComparisonShowsMeasuredCells(t *testing.T) {
	rep := func(st outcome.Status) *report.Report {
		return &report.Report{Subject: "c", Benches: []*report.Bench{{Name: "fn", SubjectResult: &report.Lang{Status: st, ElapsedNsMedian: 2_000_000}}}}
	}
	var out bytes.Buffer
	if err := WriteComparison(&out, rep(outcome.OK), rep(outcome.Regression)); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); strings.Count(s, "2.000ms") != 2 || !strings.Contains(s, "1.00") {
		t.Fatalf("a regression's replayed number is hidden:\n%s", s)
	}
	out.Reset()
	if err := WriteComparison(&out, rep(outcome.OK), rep(outcome.Timeout)); err != nil {
		t.Fatal(err)
	}
	if s := out.String(); !strings.Contains(s, "timeout") || strings.Count(s, "2.000ms") != 1 {
		t.Fatalf("a timed-out replay shows a number:\n%s", s)
	}
}
