package judge

import (
	"strings"
	"testing"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/outcome"
)

// CPU time is read from the samples' cpu_ns and gates only where an entry
// asks (a cpu_ns written in): a cell with twice the baseline's CPU time
// passes an entry without it, --update-baselines records no key of it,
// and the same cell regresses on an entry holding it; a cpu_ns that is
// not a positive integer is refused on read.
func TestCPUGatesOnlyWhenAsked(t *testing.T) {
	cpu := Values{Median: 2_000_000, Samples: []int64{1_990_000, 2_000_000, 2_010_000}}
	el := Values{Median: 1_000_000, Samples: []int64{990_000, 1_000_000, 1_010_000}}
	cell := Cell{Status: outcome.OK, Median: el.Median, Samples: el.Samples, Figures: MetricCell{wire.CPUNs: cpu}}
	if got := CPU.Read(cell.Metrics()); got.Median != cpu.Median {
		t.Fatalf("cpu read %+v", got)
	}
	e := &Entry{ElapsedNs: 1_000_000}
	if v := gate(cell, e, DefaultAlpha); v["cpu"] != nil {
		t.Fatalf("cpu gated an entry without cpu_ns: %+v", v["cpu"])
	}
	Record(e, []MetricCell{{wire.ElapsedNs: el, wire.CPUNs: cpu}})
	if e.Has(wire.CPUNs) {
		t.Fatal("--update-baselines recorded cpu_ns")
	}
	f, err := Parse("b.json", []byte(`{"benches": {"a": {"elapsed_ns": 1000000, "cpu_ns": 1000000}}}`))
	if err != nil {
		t.Fatal(err)
	}
	v := gate(cell, f.Benches["a"], DefaultAlpha)["cpu"]
	if v == nil || v.Status != outcome.Regression || v.Ratio != 2 {
		t.Fatalf("cpu on an entry asking for it: %+v", v)
	}
	if _, err := Parse("b.json", []byte(`{"benches": {"a": {"elapsed_ns": 1000000, "cpu_ns": -5}}}`)); err == nil || !strings.Contains(err.Error(), "cpu_ns") {
		t.Fatalf("a negative cpu_ns read: %v", err)
	}
}
