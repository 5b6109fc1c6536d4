package judge

import (
	"testing"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/outcome"
)

func spreadEntry(ir uint64, spread float64) *Entry {
	e := countEntry(ir)
	e.CountSpread = &spread
	return e
}

// One run settles a cell only where the baseline repeated to the
// instruction and the run counted exactly its instructions, the same way;
// anything else needs the determinism rule's two runs.
func TestSettledByOne(t *testing.T) {
	threaded := counted(1000)
	threaded.Runs[0].Threads = true
	otherValgrind := counted(1000)
	otherValgrind.Valgrind = "valgrind-3.24.0"
	failed := counted(1000)
	failed.Runs[0].Status = wire.CountFailed
	cases := []struct {
		name  string
		cell  CountCell
		entry *Entry
		want  bool
	}{
		{"equal, spread 0", counted(1000), spreadEntry(1000, 0), true},
		{"one instruction more", counted(1001), spreadEntry(1000, 0), false},
		{"one instruction less", counted(999), spreadEntry(1000, 0), false},
		{"baseline spread over 0", counted(1000), spreadEntry(1000, 0.00005), false},
		{"baseline spread not recorded", counted(1000), countEntry(1000), false},
		{"no baseline", counted(1000), nil, false},
		{"threaded", threaded, spreadEntry(1000, 0), false},
		{"another Valgrind", otherValgrind, spreadEntry(1000, 0), false},
		{"a failed run", failed, spreadEntry(1000, 0), false},
		{"two runs", counted(1000, 1000), spreadEntry(1000, 0), false},
	}
	for _, c := range cases {
		if got := SettledByOne(c.cell, c.entry); got != c.want {
			t.Errorf("%s: SettledByOne = %v, want %v", c.name, got, c.want)
		}
	}
}

// The verdict on one settled run is ok with that count; one run that
// differs is not judged alone (count_failed: the harness asks a second);
// two that agree are judged by the band as before, two that disagree are
// count_unstable.
func TestCountOneRunRule(t *testing.T) {
	e := spreadEntry(1000000, 0)
	if v := Count(counted(1000000), e); v.Verdict != outcome.OK || v.Median != 1000000 || v.Spread != 0 || v.Delta != 0 || v.EstCycles == 0 {
		t.Fatalf("one equal run: %+v", v)
	}
	if v := Count(counted(1000001), e); v.Verdict != outcome.CountFailed {
		t.Fatalf("one differing run judged alone: %+v", v)
	}
	if v := Count(counted(1100000, 1100000), e); v.Verdict != outcome.Regression {
		t.Fatalf("a code change, confirmed by a second run: %+v", v)
	}
	if v := Count(counted(1000000, 1100000), e); v.Verdict != outcome.CountUnstable {
		t.Fatalf("a disagreeing pair: %+v", v)
	}
	if s := Summarize(counted(1000000)); s.Status != outcome.CountFailed {
		t.Fatalf("without a baseline one run is not enough: %+v", s)
	}
}
