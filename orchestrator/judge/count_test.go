package judge

import (
	"strings"
	"testing"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/outcome"
)

func runs(irs ...uint64) []wire.Count {
	var out []wire.Count
	for _, ir := range irs {
		out = append(out, wire.Count{Status: wire.CountOK, Scope: wire.ScopeRegion, Ir: ir, I1mr: 1, DLmr: 1})
	}
	return out
}

func counted(irs ...uint64) CountCell {
	return CountCell{Asked: true, Runs: runs(irs...), Target: "x86-64-v3", Valgrind: "valgrind-3.19.0"}
}

func countEntry(ir uint64) *Entry {
	return &Entry{ElapsedNs: 1000, Instructions: ir, CountScope: wire.ScopeRegion, CountTarget: "x86-64-v3", ValgrindVersion: "valgrind-3.19.0"}
}

// The determinism rule: two or more runs, within 0.01 % of each other.
func TestSummarize(t *testing.T) {
	failed := counted(100, 100)
	failed.Runs[1] = wire.Count{Status: wire.CountFailed, Detail: "valgrind: unhandled instruction"}
	threads := counted(681691, 681691) // agreeing by luck: the count of a threaded program is never gated
	threads.Runs[0].Threads, threads.Runs[1].Threads = true, true
	cases := []struct {
		name   string
		cell   CountCell
		status outcome.Status
		median uint64
		spread float64
		why    string
	}{
		{"identical", counted(140000051, 140000051), outcome.OK, 140000051, 0, ""},
		{"within 0.01 %", counted(1000000, 1000100, 1000050), outcome.OK, 1000050, 0.0001, ""},
		{"over 0.01 %", counted(1000000, 1000101), outcome.CountUnstable, 1000000, 0.000101, "0.0101%"},
		{"threads, agreeing", threads, outcome.CountUnstable, 681691, 0, "second thread"},
		{"one run", counted(5), outcome.CountFailed, 0, 0, "needs 2"},
		{"a run failed", failed, outcome.CountFailed, 0, 0, "unhandled instruction"},
		{"nothing counted", counted(0, 0), outcome.CountFailed, 0, 0, "no instruction"},
		{"not counted", CountCell{Asked: true, NotCounted: "node: Valgrind cannot run V8's JIT"}, outcome.NotCounted, 0, 0, "V8"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := Summarize(c.cell)
			if s.Status != c.status || s.Median != c.median || (s.Spread-c.spread) > 1e-12 || (c.spread-s.Spread) > 1e-12 || !strings.Contains(s.Why, c.why) {
				t.Fatalf("got %s median %d spread %v why %q", s.Status, s.Median, s.Spread, s.Why)
			}
		})
	}
	if s := Summarize(counted(10, 10)); s.EstCycles != 10+10+100 || s.Scope != wire.ScopeRegion {
		t.Fatalf("estimated cycles %d scope %q: want the README's formula over the run's events", s.EstCycles, s.Scope)
	}
}

// Every count verdict, with the band max(0.5 %, 4 × recorded spread).
func TestCountVerdicts(t *testing.T) {
	spread := 0.002 // band 0.8 %
	wide := countEntry(1000000)
	wide.CountSpread = &spread
	otherVg, otherTarget, otherScope := countEntry(1000000), countEntry(1000000), countEntry(1000000)
	otherVg.ValgrindVersion, otherTarget.CountTarget, otherScope.CountScope = "valgrind-3.22.0", "native", wire.ScopeProcess
	cases := []struct {
		name  string
		cell  CountCell
		entry *Entry
		want  outcome.Status
	}{
		{"ok, identical", counted(1000000, 1000000), countEntry(1000000), outcome.OK},
		{"ok inside the 0.5 % floor", counted(1004999, 1004999), countEntry(1000000), outcome.OK},
		{"regression over the floor", counted(1005001, 1005001), countEntry(1000000), outcome.Regression},
		{"2 % more work", counted(1020000, 1020000), countEntry(1000000), outcome.Regression},
		{"inside a spread-derived band", counted(1007000, 1007000), wide, outcome.OK},
		{"over a spread-derived band", counted(1009000, 1009000), wide, outcome.Regression},
		{"improved", counted(900000, 900000), countEntry(1000000), outcome.Improved},
		{"unstable is not gated", counted(2000000, 2100000), countEntry(1000000), outcome.CountUnstable},
		{"failed", counted(1), countEntry(1000000), outcome.CountFailed},
		{"no count baseline", counted(5, 5), &Entry{ElapsedNs: 1000}, outcome.NoBaseline},
		{"no entry", counted(5, 5), nil, outcome.NoBaseline},
		{"another valgrind", counted(2000000, 2000000), otherVg, outcome.Incomparable},
		{"another target", counted(2000000, 2000000), otherTarget, outcome.Incomparable},
		{"another scope", counted(2000000, 2000000), otherScope, outcome.Incomparable},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := Count(c.cell, c.entry)
			if v.Verdict != c.want {
				t.Fatalf("verdict %s (%s), want %s", v.Verdict, v.Why, c.want)
			}
			if c.want == outcome.Regression && (v.Delta <= 0 || !strings.Contains(v.Why, "instructions")) {
				t.Fatalf("a regression says its exact delta: %d %q", v.Delta, v.Why)
			}
		})
	}
}

// Counts gate across machines: a baseline from another CPU model (time
// incomparable_machine) still gates by counts when Valgrind, target and
// scope agree; the count regression makes the bench, and the run, a
// regression flagged by instructions.
func TestCountsGateAcrossMachines(t *testing.T) {
	subj := ok("n:1", 1000000) // 1 instruction per ns: what a CPU retires
	subj.Count = counted(1100000, 1100000)
	g := Gate{Entry: countEntry(1000000), Alpha: 0.01, Incomparable: "differs: CPU Intel Xeon here, AMD EPYC in the baseline"}
	v := Bench("c", map[string]Cell{"c": subj}, g)
	if v.Status != outcome.Regression || v.Cells["c"] != outcome.Regression || len(v.Flagged) != 1 || v.Flagged[0] != Instructions.Name {
		t.Fatalf("status %s cell %s flagged %v", v.Status, v.Cells["c"], v.Flagged)
	}
	if v.Checks[MetricTime.Name] != nil || v.Counts["c"].Verdict != outcome.Regression || !strings.Contains(v.Detail["c"], "instructions") {
		t.Fatalf("time %v counts %+v detail %q", v.Checks[MetricTime.Name], v.Counts["c"], v.Detail["c"])
	}
	if Run([]BenchStatus{{Status: v.Status, HadBaseline: true}}) != outcome.Regression {
		t.Fatal("a count regression does not make the run a regression")
	}
	// The same count on another CPU: its count gated and held, so the
	// bench is ok (not "not gated"), and says its time was not gated.
	subj.Count = counted(1000000, 1000000)
	if v := Bench("c", map[string]Cell{"c": subj}, g); v.Status != outcome.OK || v.Counts["c"].Verdict != outcome.OK ||
		!strings.Contains(v.Detail["c"], "time and memory not gated") || !strings.Contains(v.Detail["c"], "instructions gated: ok, 1000000 against the baseline's 1000000 (+0.00%)") {
		t.Fatalf("same counts on another CPU: %s / %s, %q", v.Status, v.Counts["c"].Verdict, v.Detail["c"])
	}
	// A threaded count is not judged: nothing gates the bench.
	subj.Count = counted(1000000, 1001000)
	if v := Bench("c", map[string]Cell{"c": subj}, g); v.Status != outcome.IncomparableMachine {
		t.Fatalf("unstable counts on another CPU: %s / %s", v.Status, v.Counts["c"].Verdict)
	}
}

// A failed or unstable count leaves the bench to the time gate; a time
// regression is flagged by time; comparatives are summarized, not gated.
func TestCountsBesideTime(t *testing.T) {
	tol := 0.3
	e := countEntry(1000000)
	e.Tolerance = &tol
	subj := ok("n:1", 1000)
	subj.Count = counted(1)
	cmp := ok("n:1", 900)
	cmp.Count = counted(7, 7)
	v := Bench("c", map[string]Cell{"c": subj, "go": cmp}, Gate{Entry: e, Alpha: 0.01})
	if v.Status != outcome.OK || v.Counts["c"].Verdict != outcome.CountFailed || v.Counts["go"].Verdict != outcome.OK || len(v.Flagged) != 0 {
		t.Fatalf("status %s counts %s/%s flagged %v", v.Status, v.Counts["c"].Verdict, v.Counts["go"].Verdict, v.Flagged)
	}
	slow := ok("n:1", 2000)
	slow.Count = counted(1000000, 1000000)
	v = Bench("c", map[string]Cell{"c": slow}, Gate{Entry: e, Alpha: 0.01})
	if v.Status != outcome.Regression || len(v.Flagged) != 1 || v.Flagged[0] != MetricTime.Name {
		t.Fatalf("time regression: %s flagged %v", v.Status, v.Flagged)
	}
	// Not asked: no count lane at all.
	if v := Bench("c", map[string]Cell{"c": ok("n:1", 1000)}, Gate{Entry: e, Alpha: 0.01}); len(v.Counts) != 0 {
		t.Fatalf("uncounted cells got counts %v", v.Counts)
	}
	// A bench whose entry holds counts alone has no time baseline.
	if v := Bench("c", map[string]Cell{"c": ok("n:1", 1000)}, Gate{Entry: &Entry{Instructions: 5}, Alpha: 0.01}); v.Status != outcome.NoBaseline {
		t.Fatalf("counts-only entry: %s", v.Status)
	}
}

// Not timed (--count=only): the bench's status is its count verdict, so a
// count that failed needs attention instead of passing as ok.
func TestCountOnlyBenchStatus(t *testing.T) {
	for _, c := range []struct {
		cell CountCell
		want outcome.Status
	}{{counted(1000000, 1000000), outcome.OK}, {counted(1), outcome.CountFailed}, {counted(1100000, 1100000), outcome.Regression},
		{CountCell{Asked: true, NotCounted: "no valgrind"}, outcome.NotCounted}} {
		subj := Cell{Status: outcome.OK, Count: c.cell}
		v := Bench("c", map[string]Cell{"c": subj}, Gate{Entry: countEntry(1000000), Alpha: 0.01})
		if v.Status != c.want {
			t.Errorf("%+v: bench %s, want %s", c.cell.Runs, v.Status, c.want)
		}
	}
}

// The instrument: a baseline that names none was counted with the cache
// simulation; Callgrind without it counts other instructions, so another
// instrument is incomparable, as another Valgrind is; runs counted by two
// instruments are no count.
func TestCountInstruments(t *testing.T) {
	cell := func(instrument string) CountCell {
		c := counted(1000000, 1000000)
		for i := range c.Runs {
			c.Runs[i].Instrument = instrument
		}
		return c
	}
	entry := func(instrument string) *Entry {
		e := countEntry(1000000)
		e.CountInstrument = instrument
		return e
	}
	cases := []struct {
		here, base string
		want       outcome.Status
	}{
		{wire.InstrumentCallgrindCacheSim, "", outcome.OK},
		{wire.InstrumentCallgrindCacheSim, wire.InstrumentCallgrindCacheSim, outcome.OK},
		{wire.InstrumentCallgrind, wire.InstrumentCallgrind, outcome.OK},
		{wire.InstrumentCallgrind, "", outcome.Incomparable},
		{wire.InstrumentCallgrind, wire.InstrumentCallgrindCacheSim, outcome.Incomparable},
		{wire.InstrumentCallgrindCacheSim, wire.InstrumentCallgrind, outcome.Incomparable},
		{wire.InstrumentCallgrindCacheSim, "cachegrind", outcome.Incomparable},
		{"cachegrind", "", outcome.Incomparable},
	}
	for _, c := range cases {
		v := Count(cell(c.here), entry(c.base))
		if v.Verdict != c.want || v.Instrument != c.here {
			t.Errorf("counted by %q, baseline by %q: %s (%s) instrument %q, want %s", c.here, c.base, v.Verdict, v.Why, v.Instrument, c.want)
		}
		if c.want == outcome.Incomparable && !strings.Contains(v.Why, "instrument") {
			t.Errorf("%q vs %q: %q does not name the instrument", c.here, c.base, v.Why)
		}
	}
	mixed := cell(wire.InstrumentCallgrind)
	mixed.Runs[1].Instrument = wire.InstrumentCallgrindCacheSim
	if s := Summarize(mixed); s.Status != outcome.CountFailed {
		t.Fatalf("runs of two instruments: %s", s.Status)
	}
	if s := Summarize(cell(wire.InstrumentCallgrind)); s.EstCycles != 0 {
		t.Fatalf("est_cycles %d without the cache simulation, want none", s.EstCycles)
	}
}
