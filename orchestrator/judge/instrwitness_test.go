package judge

import (
	"strings"
	"testing"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/outcome"
)

// witnessedRuns are two agreeing region counts of region instructions,
// the first job's carrying its process's count (a later job takes none).
func witnessedRuns(region, process uint64) CountCell {
	c := counted(region, region)
	if process > 0 {
		c.Runs[0].Set(wire.InstructionsProcess, int64(process))
	}
	return c
}

// witnessEntry is a count baseline of a 5 M-instruction region whose
// process counted 100 k more; old: recorded before the witness.
func witnessEntry(old bool) *Entry {
	e := countEntry(5_000_000)
	if !old {
		if err := e.SetFigure(OutsideInstrKey, 100_000); err != nil {
			panic(err)
		}
	}
	return e
}

// Each rule of the instruction witness, on the counts alone.
func TestInstrWitnessRules(t *testing.T) {
	const ms = int64(1_000_000)
	for _, c := range []struct {
		name         string
		region, proc uint64
		timed        int64
		entry        *Entry
		why, note    string
	}{
		{"honest, no baseline", 5_000_000, 5_100_000, 2 * ms, nil, "", ""},
		{"region over its process", 5_000_000, 4_000_000, 2 * ms, nil, "more than its whole process's", ""},
		{"clock read before the work: 10 in 2 ms", 10, 5_100_000, 2 * ms, nil, "fewer than any CPU retires", ""},
		{"not timed (--count=only): no floor", 10, 5_100_000, 0, nil, "", "no timed region"},
		{"no witness taken", 5_000_000, 0, 2 * ms, nil, "", "no instruction witness"},
		{"honest against its baseline", 5_000_000, 5_100_000, 2 * ms, witnessEntry(false), "", ""},
		{"startup grew within the tolerance", 5_000_000, 7_000_000, 2 * ms, witnessEntry(false), "", ""},
		{"work moved out of the region", 1_000_000, 5_100_000, 2 * ms, witnessEntry(false), "outside the counted region grew from 100000 to 4100000", ""},
		{"the same against a baseline before the witness", 1_000_000, 5_100_000, 2 * ms, witnessEntry(true), "", "records no outside_instr"},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := Summarize(witnessedRuns(c.region, c.proc))
			w := InstrWitness(n, c.timed, c.entry)
			if (c.why == "") != (w.Why == "") || !strings.Contains(w.Why, c.why) || (c.note == "") != (w.Note == "") || !strings.Contains(w.Note, c.note) {
				t.Fatalf("why %q note %q, want %q and %q", w.Why, w.Note, c.why, c.note)
			}
		})
	}
}

// A process-scope count, or one that failed, is not held to a witness.
func TestInstrWitnessOnlyHoldsStableRegions(t *testing.T) {
	p := witnessedRuns(10, 5)
	for i := range p.Runs {
		p.Runs[i].Scope = wire.ScopeProcess
	}
	failed := witnessedRuns(10, 5)
	failed.Runs[1].Status = wire.CountFailed
	for name, c := range map[string]CountCell{"process": p, "failed": failed} {
		if w := InstrWitness(Summarize(c), 1_000_000, nil); w != (WitnessCheck{}) {
			t.Errorf("%s: %+v", name, w)
		}
	}
}

// In a bench's verdict: an unwitnessed count does not gate (neither
// improved nor ok), says why, is not the bench's count regression, and a
// time regression stands beside it; the honest count gates as before.
func TestBenchWithAnUnwitnessedCount(t *testing.T) {
	timed := func(region, proc uint64, e *Entry) Verdict {
		cell := timedCell(process(2e6, 1e6, 2e6, 5, 0))
		cell.Count = witnessedRuns(region, proc)
		return Bench("c", map[string]Cell{"c": cell}, Gate{Entry: e, Alpha: 0.01})
	}
	honest := timed(5_000_000, 5_100_000, nil)
	if honest.Status != outcome.NoBaseline || honest.Counts["c"].Verdict != outcome.NoBaseline {
		t.Errorf("honest: %s, count %s %q", honest.Status, honest.Counts["c"].Verdict, honest.Counts["c"].Why)
	}
	early := timed(10, 5_100_000, nil)
	if early.Status != outcome.Unwitnessed || early.Counts["c"].Verdict != outcome.Unwitnessed || !strings.Contains(early.Detail["c"], "fewer than any CPU retires") {
		t.Errorf("early: %s, count %s, detail %q", early.Status, early.Counts["c"].Verdict, early.Detail["c"])
	}
	// Counts alone (--count=only) against a witnessed baseline: the region
	// would be "improved" by 80 %; the witness says the work moved out.
	only := Cell{Status: outcome.OK, Count: witnessedRuns(1_000_000, 5_100_000)}
	v := Bench("c", map[string]Cell{"c": only}, Gate{Entry: witnessEntry(false), Alpha: 0.01})
	if v.Status != outcome.Unwitnessed || !strings.Contains(v.Detail["c"], "grew from 100000") || v.Status.Severity() != outcome.Attention {
		t.Errorf("moved out, against a baseline: %s %q", v.Status, v.Detail["c"])
	}
	old := Bench("c", map[string]Cell{"c": only}, Gate{Entry: witnessEntry(true), Alpha: 0.01})
	if old.Status != outcome.Improved || !strings.Contains(old.Counts["c"].Witness, "records no outside_instr") {
		t.Errorf("against a baseline before the witness: %s, witness note %q", old.Status, old.Counts["c"].Witness)
	}
}

// outside_instr is recorded with the counts where they carried a witness,
// read back and checked like any key.
func TestInstrWitnessField(t *testing.T) {
	k := InstrWitnessFields.Counts(Counted{Instructions: 5, Process: 12, Scope: wire.ScopeRegion})
	if k[OutsideInstrKey] != uint64(7) {
		t.Errorf("recorded %v", k)
	}
	if k := InstrWitnessFields.Counts(Counted{Instructions: 5, Scope: wire.ScopeRegion}); len(k) != 0 {
		t.Errorf("no witness, yet %v", k)
	}
	for doc, want := range map[string]string{
		`"outside_instr": -1`:  "field outside_instr",
		`"outside_instr": "x"`: "field outside_instr must be an integer",
	} {
		_, err := Parse("b.json", []byte(`{"benches": {"a": {"elapsed_ns": 100, `+doc+`}}}`))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s read: %v", doc, err)
		}
	}
	f, err := Parse("b.json", []byte(`{"benches": {"a": {"elapsed_ns": 100, "outside_instr": 42}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if n, ok := outsideInstrBase(f.Benches["a"]); !ok || n != 42 {
		t.Errorf("read back %d %v", n, ok)
	}
}
