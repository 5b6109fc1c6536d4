package plan

import (
	"strings"
	"testing"
)

func work(samples int, cells ...string) Work {
	w := Work{Cells: map[string]int{}, Counted: map[string]int{}, Samples: samples, CountRuns: 2}
	for _, n := range cells {
		w.Cells[n], w.Counted[n] = 2, 1
	}
	return w
}

// Counted cells cost by their recorded instructions, timed ones by their
// recorded medians; a bench the file lacks costs the mean, a bench that
// runs in no language nothing.
func TestFromBaselines(t *testing.T) {
	f := map[string]Recorded{
		"big": {Instructions: 1_000_000_000, ElapsedNs: 50_000_000}, "small": {Instructions: 1000, ElapsedNs: 1000},
		"mid": {Instructions: 100_000_000, ElapsedNs: 5_000_000},
	}
	w := work(0, "big", "small", "mid", "new")
	w.Cells["nolang"] = 0
	c := FromBaselines("b.json", f, w)
	wantBig := int64(2 * (CountRunStartNs + CountNsPerInstr*1_000_000_000))
	if mean := (c.Of["big"] + c.Of["small"] + c.Of["mid"]) / 3; c.Of["big"] != wantBig || c.Of["nolang"] != 0 || c.Of["new"] != mean {
		t.Fatalf("costs %v; want big %d, new at the mean %d, nolang 0", c.Of, wantBig, mean)
	}
	if !strings.Contains(c.By, "b.json") || !strings.Contains(c.By, "1 benches without one at the mean") {
		t.Fatalf("balanced by %q", c.By)
	}
	timed := FromBaselines("b.json", f, Work{Cells: map[string]int{"big": 2}, Counted: map[string]int{}, Samples: 6})
	if want := int64(2 * 6 * (50_000_000 + SampleOverNs)); timed.Of["big"] != want {
		t.Fatalf("timed cost %d; want %d", timed.Of["big"], want)
	}
	none := FromBaselines("b.json", map[string]Recorded{}, w)
	if !strings.HasPrefix(none.By, "cells") || none.Of["big"] != 2 || none.Of["nolang"] != 0 {
		t.Fatalf("no figures: %v by %q; want cells", none.Of, none.By)
	}
}

// An earlier report's recorded times, by bench; a bench it lacks costs
// the mean of those it has.
func TestFromReport(t *testing.T) {
	c := FromReport("old.json", map[string]int64{"a": 115, "b": 1}, work(1, "a", "b", "c"))
	if c.Of["a"] != 115 || c.Of["b"] != 1 || c.Of["c"] != 58 {
		t.Fatalf("costs %v; want a 115, b 1, c at the mean 58", c.Of)
	}
	if !strings.Contains(c.By, "old.json") {
		t.Fatalf("balanced by %q", c.By)
	}
}
