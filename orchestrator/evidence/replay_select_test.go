package evidence

import (
	"context"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/stamp"
)

// A replay reruns the benches the report measured: two of a larger suite
// are those two, the whole suite is the whole suite (so a bench the
// baselines name and the suite lost is still found), none is everything.
func TestReplayedBenches(t *testing.T) {
	const suite = "../harness/testdata/suite"
	two := &report.Report{Benches: []*report.Bench{{Name: "count"}, {Name: "spin"}}}
	if got, err := replayedBenches(two, suite); err != nil || got != "count,spin" {
		t.Fatalf("two benches: %q %v", got, err)
	}
	if got, _ := replayedBenches(&report.Report{}, suite); got != "" {
		t.Fatalf("no bench: %q", got)
	}
	all := &report.Report{}
	for _, name := range []string{"count", "crash", "spin"} {
		all.Benches = append(all.Benches, &report.Bench{Name: name})
	}
	all.Benches = append(all.Benches, &report.Bench{Name: "gone", Category: "missing"})
	if got, _ := replayedBenches(all, suite); got != "" {
		t.Fatalf("the whole suite: %q", got)
	}
}

// replay notes, before anything of the bundle runs, a report made by
// another halebench, naming both (here the run stops next, at the
// bundle's missing suite; the note was said already).
func TestReplayNotesAnotherHalebench(t *testing.T) {
	other := `{"version":"v0.1.0","commit":"fedcba9876543210fedcba9876543210fedcba98","dirty":false}`
	rep := `{"schema":"halebench-report/1","halebench":` + other + `,"subject":"c","base_image":{"reference":"b","id":"sha256:b","origin":"mmdebstrap","inputs":{"source_date_epoch":1}},"benches":[]}`
	bundle := bundleOf(t, []entry{{name: "report.json", data: rep}, {name: "images.tar", data: "img"}}, nil)
	var notes, log strings.Builder
	_, _, err := Replay(context.Background(), nil, bundle, ReplayOptions{ResultsDir: t.TempDir(), Log: &log, Notes: &notes})
	if err == nil || !strings.Contains(err.Error(), "the bundle's suite") {
		t.Fatalf("replay of a bundle without a suite: %v", err)
	}
	made := &stamp.Tool{Version: "v0.1.0", Commit: "fedcba9876543210fedcba9876543210fedcba98"}
	want := "halebench: note: " + stamp.Another(made, stamp.This()) // a different commit, or none stamped in this test binary
	if !strings.Contains(want, "it was made by halebench v0.1.0 (commit fedcba98") || strings.TrimSpace(notes.String()) != want || strings.Contains(log.String(), "note:") {
		t.Fatalf("notes %q, log %q; want the note %q on Notes alone", notes.String(), log.String(), want)
	}
}
