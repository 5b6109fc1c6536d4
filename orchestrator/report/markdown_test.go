package report

import (
	"regexp"
	"strings"
	"testing"
)

// The snapshot goes into release notes: a report's text (a bench's name, a
// category, a status, the subject's reason and version, the host) brings
// no image, link, autolink or HTML into them, and breaks no table row.
func TestMarkdownNeutralisesHostileText(t *testing.T) {
	hostile := "![i](https://evil.example/i.png) <img src=x> [l](http://e) www.evil.example |x|\n| a | b |"
	r := &Report{
		GeneratedAt: "2026-12-02T00:00:00Z", Subject: "c", SubjectStatus: "unavailable <b>", SubjectReason: hostile,
		Settings:   Settings{Languages: []string{"c", "go"}},
		Host:       Host{HostInfo: HostInfo{CPUModel: hostile, Arch: "<script>", Kernel: "6.1 <i>"}},
		Images:     map[string]Toolchain{"c": {Version: hostile}},
		Categories: []Category{{Title: hostile, Benches: []string{hostile}}},
		Benches: []*Bench{{Name: hostile, Status: "run_failed",
			SubjectResult: &Lang{Status: "![s](https://evil.example/s.png)"},
			Comparatives:  map[string]*Lang{"go": {Status: "<img src=y>", ElapsedNsMedian: 5, Comparable: true}}}},
	}
	var b strings.Builder
	Markdown(&b, r)
	out := b.String()
	plain := regexp.MustCompile("\\\\[!-/:-@\\[-`{-~]").ReplaceAllString(out, " ")
	for _, bad := range []string{"<img", "<b>", "<i>", "<script", "![", "](", "://", "www."} {
		if strings.Contains(plain, bad) {
			t.Errorf("the snapshot carries %q:\n%s", bad, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "| ") && strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") != 4 {
			t.Errorf("a row with other than 3 cells: %q", line)
		}
	}
}
