package evidence

import (
	"testing"

	"github.com/hale-lang/halebench/orchestrator/report"
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
