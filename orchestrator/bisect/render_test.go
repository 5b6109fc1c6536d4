package bisect

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/stamp"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// WriteResult: every step's figures and the answer on stdout; --json the same
// as one object.
func TestPrintBisect(t *testing.T) {
	first := Commit{ID: "2fc22f10aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", Subject: "Merge pull request #384"}
	r := &Result{Outcome: Found, First: &first, Commits: 11, BuildSeconds: 900, Detail: "commit 2fc22f10aaaa is the first",
		Ends: map[string]Ratio{"fn_modular": {Ratio: 1.31, Low: 1.29, High: 1.33}},
		Steps: []Step{
			{Commit: Commit{ID: "16b227e6be965f02", Subject: "v0.13.0"}, Verdict: VerdictGoodEnd, BuildSeconds: 300},
			{Commit: first, Verdict: VerdictBad, BuildSeconds: 600,
				VsGood: map[string]Ratio{"fn_modular": {Ratio: 1.30, Low: 1.28, High: 1.32}},
				VsBad:  map[string]Ratio{"fn_modular": {Ratio: 1.004, Low: 0.99, High: 1.02}}},
		}}
	var b strings.Builder
	if err := WriteResult(&b, r, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"2fc22f10aaaa ", "Merge pull request #384", "bad", "600", "fn_modular ×1.300 [1.280, 1.320]", "fn_modular ×1.004", "found: commit 2fc22f10aaaa", "11 commits in range, 900 s of builds"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("grid lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	if err := WriteResult(&b, r, true); err != nil {
		t.Fatal(err)
	}
	var back Result
	if err := json.Unmarshal([]byte(b.String()), &back); err != nil || back.First.ID != first.ID || back.Steps[1].VsGood["fn_modular"].Low != 1.28 {
		t.Fatalf("json: %v %+v", err, back)
	}
	// The JSON names the halebench that wrote it, first, as every document does.
	if back.Halebench == nil || *back.Halebench != *stamp.This() || !strings.HasPrefix(b.String(), "{\n  \"halebench\": {") {
		t.Fatalf("json names halebench %v; want this one, %v, first:\n%.200s", back.Halebench, stamp.This(), b.String())
	}
	if r.Halebench != nil {
		t.Error("WriteResult stamped the caller's result, not its copy")
	}
}

// WriteResult says every step, the time-only one as such, in the grid and
// the JSON (changes).
func TestPrintBisectSteps(t *testing.T) {
	r := &Result{Outcome: Found, First: &Commit{ID: "791e25ec00", Subject: "#377"}, Changes: []Change{
		{Commit: "791e25ec00", Subject: "#377", Bench: "fn_modular", Against: "aaaa", AgainstParent: true, Ratio: 1, Interval: [2]float64{1, 1}, Metric: "instructions", TimeRatio: 1.125, TimeInterval: []float64{1.013, 1.21}, TimeOnly: true},
		{Commit: "bbbbbbbb", Subject: "#378", Bench: "fn_modular", Against: "791e25ec00", AgainstParent: true, Ratio: 1.86, Interval: [2]float64{1.86, 1.86}, Metric: "instructions", TimeRatio: 1.44},
	}}
	var b strings.Builder
	if err := WriteResult(&b, r, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"step: 791e25ec00 fn_modular ×1.000 [1.000, 1.000] by instructions vs parent, time ×1.125 [1.013, 1.210] (time only)", "step: bbbbbbbb fn_modular ×1.860"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	if err := WriteResult(&b, r, true); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Changes []map[string]any `json:"changes"`
	}
	if err := json.Unmarshal([]byte(b.String()), &back); err != nil || len(back.Changes) != 2 || back.Changes[0]["time_only"] != true || back.Changes[1]["ratio_vs_parent"] != 1.86 {
		t.Fatalf("json: %v %s", err, b.String())
	}
}

// WriteResult cleans a result it is handed, grid and JSON alike.
func TestPrintBisectCleans(t *testing.T) {
	first := Commit{ID: "2fc22f10aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", Subject: "  ::error::planted ##vso[task.complete]"}
	r := &Result{Outcome: Found, First: &first, Detail: "commit 2fc (\n::error::x)", Good: first, Bad: first,
		Steps: []Step{{Commit: first, Verdict: VerdictSkipped, Note: "cargo:\n    ::error::y ##[error]z"}}}
	for _, asJSON := range []bool{false, true} {
		var b bytes.Buffer
		if err := WriteResult(&b, r, asJSON); err != nil {
			t.Fatal(err)
		}
		if cmd := termtext.CommandLine(b.String()); cmd != "" || !strings.Contains(b.String(), "planted") {
			t.Errorf("json=%v: %q in\n%s", asJSON, cmd, b.String())
		}
	}
	if r.First.Subject != first.Subject {
		t.Error("WriteResult changed the result it was handed")
	}
}
