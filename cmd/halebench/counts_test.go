package main

import (
	"encoding/json"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/judge"
)

// The checked-in counts of the C stand-in (baselines-c.json) gate a
// count-only run on this host, whatever its CPU model: every bench the
// file holds is counted here within its band (count_verdict ok), none is
// incomparable, none regressed; how many were exactly equal is logged (on
// the host that recorded them, all; on another CPU model, the figure to
// report). The threaded benches the file
// leaves out are count_unstable, never gated.
func TestSlowCheckedInCounts(t *testing.T) {
	enginetest.Slow(t)
	enginetest.Connect(t)
	file, err := judge.Load("../../baselines-c.json")
	if err != nil || file.SubjectOf() != "c" {
		t.Fatalf("baselines-c.json: %v (subject %q)", err, file.SubjectOf())
	}
	code, out, errOut := run(t, nil, "run", "--suite=../..", "--subject=c", "--lang=c", "--count=only",
		"--baselines=../../baselines-c.json", "--results="+t.TempDir(), "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	var rep struct {
		Benches []struct {
			Name          string `json:"name"`
			CountVerdict  string `json:"count_verdict"`
			SubjectResult struct {
				Count *struct {
					Ir uint64 `json:"ir"`
				} `json:"count"`
			} `json:"subject_result"`
		} `json:"benches"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	held, exact := 0, 0
	for _, b := range rep.Benches {
		e := file.Benches[b.Name]
		if !e.HasCounts() {
			continue
		}
		held++
		c := b.SubjectResult.Count
		if b.CountVerdict != "ok" || c == nil {
			t.Errorf("%s: count_verdict %s, counted %+v, checked in %d", b.Name, b.CountVerdict, c, e.Instructions)
			continue
		}
		if c.Ir == e.Instructions {
			exact++
		} else {
			t.Logf("%s: counted %d here, %d checked in", b.Name, c.Ir, e.Instructions)
		}
	}
	t.Logf("%d of %d checked-in counts exactly equal on this host", exact, held)
	if held == 0 || held != countsHeld(file) {
		t.Fatalf("%d of the file's %d counted benches were in the run", held, countsHeld(file))
	}
}

func countsHeld(f *judge.File) int {
	n := 0
	for _, e := range f.Benches {
		if e.HasCounts() {
			n++
		}
	}
	return n
}
