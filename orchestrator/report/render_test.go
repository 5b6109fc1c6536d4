package report

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

func sample() *Result {
	return &Result{A: "suite benches", B: "suite b", Threshold: 0.02, Confidence: 0.95, LookLevel: 0.995, Looks: []int{6, 60}, Seed: 9, Rounds: 12, StoppedBy: "resolved",
		Benches: []ABBench{
			{Name: "fn_modular", Lang: "c", Verdict: outcome.Slower, MedianA: 1e6, MedianB: 1.1e6, Ratio: 1.1, RatioLow: 1.08, RatioHigh: 1.12, HalfWidth: 0.02, Rounds: 12, InstrA: 100, InstrB: 110, InstrRatio: 1.1},
			{Name: "fn_call", Lang: "c", Verdict: outcome.Same, MedianA: 2e6, MedianB: 2e6, Ratio: 1.0, RatioLow: 0.99, RatioHigh: 1.01, HalfWidth: 0.01, Rounds: 6, Detail: "not counted: c has no counted build"},
			{Name: "gone", Lang: "c", Verdict: outcome.Missing, Detail: "B: no such bench"},
		}}
}

func TestOutputs(t *testing.T) {
	r := sample()
	var grid, md, js bytes.Buffer
	ABGrid(&grid, r)
	ABMarkdown(&md, r)
	if err := JSON(&js, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"fn_modular", "1.100 [1.080, 1.120]", "1.1000", "slower", "gone (c): B: no such bench", "seed 9"} {
		if !strings.Contains(grid.String(), want) {
			t.Errorf("grid lacks %q:\n%s", want, grid.String())
		}
	}
	if !strings.Contains(md.String(), "| fn_modular | c | 1.00ms | 1.10ms | 1.100 [1.080, 1.120] | 1.1000 | slower |") {
		t.Errorf("markdown:\n%s", md.String())
	}
	var back struct {
		Benches []map[string]any `json:"benches"`
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	b0 := back.Benches[0]
	if b0["name"] != "fn_modular" || b0["verdict"] != "slower" || b0["ratio_low"] != 1.08 || b0["ratio_high"] != 1.12 || b0["instructions_b"] != 110.0 {
		t.Errorf("json bench: %v", b0)
	}
}

// A side, a bench or a build can name itself anything: what the grid
// prints carries no CI command or escape, and what the Markdown prints no
// image, link, HTML or extra cell.
func TestHostileTextIsDefanged(t *testing.T) {
	r := sample()
	r.A, r.B = "![pwn](https://evil.example/a.png)", "hale at  ::error::b ##vso[task.complete]"
	r.Host.CPUModel = "<img src=https://evil.example/h.gif>"
	r.Warnings = []string{"  ::warning::w\n\t::error::two", "\x1b]0;title\x07ok"}
	r.Benches[0].Name = "x | <b>y</b>\n  ::error file=a::n"
	r.Benches[2].Detail = "B: build failed:\n    ::error::from a build log ##vso[task.setvariable variable=x]1 [l](http://evil.example)"
	var grid, md bytes.Buffer
	ABGrid(&grid, r)
	ABMarkdown(&md, r)
	if cmd := termtext.CommandLine(grid.String()); cmd != "" {
		t.Errorf("grid carries the CI command %q:\n%s", cmd, grid.String())
	}
	if strings.Contains(grid.String(), "\x1b") {
		t.Errorf("grid carries an escape: %q", grid.String())
	}
	if cmd := termtext.CommandLine(md.String()); cmd != "" {
		t.Errorf("markdown carries the CI command %q:\n%s", cmd, md.String())
	}
	// What is left once backslash escapes are taken out is read as markup.
	plain := regexp.MustCompile("\\\\[!-/:-@\\[-`{-~]").ReplaceAllString(md.String(), " ")
	for _, bad := range []string{"<img", "<b>", "![", "](", "[l]", "://"} {
		if strings.Contains(plain, bad) {
			t.Errorf("markdown carries %q:\n%s", bad, md.String())
		}
	}
	for _, line := range strings.Split(md.String(), "\n") {
		if strings.HasPrefix(line, "| ") && strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") != 8 {
			t.Errorf("a row with other than 7 cells: %q", line)
		}
	}
}
