package report

import (
	"encoding/json"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/stats"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func TestFormatNs(t *testing.T) {
	cases := map[int64]string{
		1:          "1 ns",
		999:        "999 ns",
		1590000:    "1.59 ms",
		19700000:   "19.7 ms",
		196400:     "196 µs",
		14940:      "14.9 µs",
		3670000000: "3.67 s",
		9996000:    "10.0 ms",
	}
	for in, want := range cases {
		if got := FormatNs(in); got != want {
			t.Errorf("FormatNs(%d) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[float64]string{12.39: "12.4", 0.40312: "0.403", 2303.4: "2303", 0.05561: "0.0556", 1.0: "1.00"} {
		if got := FormatRatio(in); got != want {
			t.Errorf("FormatRatio(%v) = %q, want %q", in, got, want)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func TestGridGolden(t *testing.T) {
	r := &Report{
		GeneratedAt: "2026-12-02T00:00:00Z", Subject: "hale", SubjectStatus: "available", Iters: 5, Warmup: 1,
		Host:     Host{},
		Settings: Settings{Languages: []string{"hale", "go", "c"}},
		Categories: []Category{
			{Name: "overhead", Title: "Overhead microbenches", Benches: []string{"loop_overhead", "fn_call"}},
			{Name: "app", Title: "App benches", Benches: []string{"stream_aggregator"}},
		},
		Benches: []*Bench{
			{Name: "loop_overhead", SubjectResult: &Lang{Status: "ok", ElapsedNsMedian: 1590000, Comparable: true},
				Comparatives: map[string]*Lang{
					"go": {Status: "ok", ElapsedNsMedian: 19700000, RatioVsSubject: ptr(12.39), Comparable: true},
					"c":  {Status: "parity_mismatch", ElapsedNsMedian: 1000000, RatioVsSubject: ptr(0.629), Comparable: true},
				}},
			{Name: "fn_call", SubjectResult: &Lang{Status: "regression", ElapsedNsMedian: 19140000, Comparable: true},
				Comparatives: map[string]*Lang{"go": {Status: "build_failed", Comparable: true}}},
			{Name: "stream_aggregator", SubjectResult: &Lang{Status: "ok", ElapsedNsMedian: 435900, Comparable: true},
				Comparatives: map[string]*Lang{"c": {Status: "ok", ElapsedNsMedian: 400000, RatioVsSubject: ptr(0.918), Comparable: false, CPUsShared: true, ElapsedNs: stats.Summary{CV: 0.25}}}},
		},
	}
	var b strings.Builder
	Grid(&b, r)
	golden := "testdata/grid.golden"
	if *update {
		os.MkdirAll("testdata", 0o755)
		os.WriteFile(golden, []byte(b.String()), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Fatalf("grid differs from %s (run with -update if intended):\n%s", golden, b.String())
	}
}

// TestMarkdownGolden renders the README snapshot of a stored run (a real
// report of this machine, trimmed to a few benches).
func TestMarkdownGolden(t *testing.T) {
	data, err := os.ReadFile("testdata/run-c.json")
	if err != nil {
		t.Fatal(err)
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	Markdown(&b, &r)
	golden := "testdata/snapshot.md.golden"
	if *update {
		os.WriteFile(golden, []byte(b.String()), 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Fatalf("snapshot differs from %s (run with -update if intended):\n%s", golden, b.String())
	}
}

func TestSnapshotParts(t *testing.T) {
	r := &Report{Subject: "hale", SubjectStatus: "available",
		Images: map[string]Toolchain{"hale": {Version: "hale 0.17.0"}}}
	if got := SubjectVersion(r); got != "Hale v0.17.0" {
		t.Errorf("SubjectVersion = %q", got)
	}
	r = &Report{Subject: "hale", SubjectStatus: "unavailable"}
	if got := SubjectVersion(r); got != "Hale unavailable" {
		t.Errorf("SubjectVersion without toolchain = %q", got)
	}
	for in, want := range map[string]string{"6.18.44-fc-v1098": "Linux 6.18", "6.1.0-28-amd64": "Linux 6.1", "": "unknown kernel", "5": "Linux 5"} {
		if got := kernelLine(in); got != want {
			t.Errorf("kernelLine(%q) = %q, want %q", in, got, want)
		}
	}
}

// A report is a file anyone may hand to `show`: what a bench or a
// toolchain wrote into it reaches the terminal without its escapes, and
// no CI runner reads a command out of the grid or the snapshot.
func TestHostileReportTextIsCleaned(t *testing.T) {
	r := &Report{
		GeneratedAt: "2026-12-02T00:00:00Z", Subject: "c", SubjectStatus: "unavailable", SubjectReason: "\x1b]0;title\x07gone",
		Status: "failed", Settings: Settings{Languages: []string{"c", "go"}},
		Host:       Host{HostInfo: HostInfo{CPUModel: "\x1b[2JCPU"}},
		Categories: []Category{{Title: "T\x1b[31m", Benches: []string{"b\x1b[1m"}}},
		Benches: []*Bench{{Name: "b\x1b[1m", Status: "run_failed", Verdict: "::error::pwned",
			SubjectResult: &Lang{Status: "run\x1b[5m_failed"},
			Comparatives:  map[string]*Lang{"go": {Status: "ok", ElapsedNsMedian: 5, Comparable: true}}}},
	}
	for name, render := range map[string]func(*strings.Builder){
		"grid": func(b *strings.Builder) { Grid(b, r) }, "markdown": func(b *strings.Builder) { Markdown(b, r) },
	} {
		var b strings.Builder
		render(&b)
		out := b.String()
		if strings.ContainsAny(out, "\x1b\x07") {
			t.Errorf("%s prints an escape: %q", name, out)
		}
		if strings.Contains(out, ": ::error") {
			t.Errorf("%s prints a CI command: %q", name, out)
		}
	}
}
