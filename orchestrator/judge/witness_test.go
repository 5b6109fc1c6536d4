package judge

import (
	"strings"
	"testing"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/outcome"
)

// process is n samples of a bench whose process spends region in its loop
// and outside before and after it, printing printed as its elapsed_ns (an
// honest bench prints its region), each ±2 % apart, deterministically.
func process(region, outside, printed int64, n, phase int) MetricCell {
	var figs []map[string]int64
	loop, rest, shown := around(region, 0.02, n, phase), around(outside, 0.02, n, phase+3), around(printed, 0.02, n, phase)
	for i := 0; i < n; i++ {
		figs = append(figs, map[string]int64{wire.ElapsedNs: shown[i], wire.WallNs: loop[i] + rest[i]})
	}
	return CellOf(figs)
}

// witnessed is a baselines entry recorded from three honest runs: a 200 ms
// loop in a process that spends 1 ms outside it.
func witnessed() *Entry { return witnessedOf(200e6, 1e6) }

// witnessedOf is such an entry of a region loop in a process that spends
// outside outside it.
func witnessedOf(region, outside int64) *Entry {
	e := &Entry{}
	Record(e, []MetricCell{process(region, outside, region, 10, 0), process(region, outside, region, 10, 1), process(region, outside, region, 10, 2)})
	band := 0.05
	e.Band = &band
	return e
}

func timedCell(m MetricCell) Cell {
	t := MetricTime.Read(m)
	return Cell{Status: outcome.OK, Check: "n:1", Median: t.Median, Samples: t.Samples, Figures: m}
}

func TestWitnessOfTime(t *testing.T) {
	old := witnessed()
	for _, k := range WitnessFields.Keys {
		delete(old.extra, k)
	}
	cases := []struct {
		name   string
		cell   MetricCell
		entry  *Entry
		status outcome.Status
		detail string // in the subject's detail ("": none)
	}{
		{"unchanged", process(200e6, 1e6, 200e6, 10, 4), witnessed(), outcome.OK, ""},
		{"honestly twice as fast", process(100e6, 1e6, 100e6, 10, 4), witnessed(), outcome.Improved, ""},
		{"a region forged to a hundredth", process(200e6, 1e6, 2e6, 10, 4), witnessed(), outcome.Unwitnessed, "outside its timed region grew"},
		{"forged, baseline before the witness", process(200e6, 1e6, 2e6, 10, 4), old, outcome.Improved, "no witness check"},
		{"a regression stands", process(400e6, 50e6, 300e6, 10, 4), witnessed(), outcome.Regression, "over the baseline"},
		{"startup 3 ms slower: under the floor", process(200e6, 4e6, 200e6, 10, 4), witnessed(), outcome.OK, ""},
		// A 10 ms loop in a process 3 ms outside it: the region forged to
		// a hundredth leaves 12.9 ms outside, under the growth rule's
		// tolerance (×5 + 5 ms), but the 9.9 ms it claims to save are
		// still in the process.
		{"short: forged to a hundredth", process(10e6, 3e6, 1e5, 10, 4), witnessedOf(10e6, 3e6), outcome.Unwitnessed, "reappears outside it"},
		{"short: honestly twice as fast", process(5e6, 3e6, 5e6, 10, 4), witnessedOf(10e6, 3e6), outcome.Improved, ""},
		{"short: startup 2 ms slower, region as it was", process(10e6, 5e6, 10e6, 10, 4), witnessedOf(10e6, 3e6), outcome.OK, ""},
		{"short: 1 ms faster, startup 0.6 ms slower: under the floor", process(9e6, 3.6e6, 9e6, 10, 4), witnessedOf(10e6, 3e6), outcome.Improved, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := Bench("c", map[string]Cell{"c": timedCell(c.cell)}, Gate{Entry: c.entry, Alpha: 0.01})
			d := v.Detail["c"] + v.Witness
			if v.Status != c.status || (c.detail == "") != (d == "") || !strings.Contains(d, c.detail) {
				t.Fatalf("status %s detail %q, want %s with %q", v.Status, d, c.status, c.detail)
			}
		})
	}
}

// In a run with no baseline, a counted region that retired more
// instructions per ns than a CPU can is not taken.
func TestWitnessInstructionsPerNs(t *testing.T) {
	for _, c := range []struct {
		name   string
		region int64
		status outcome.Status
	}{{"honest: 3 per ns", 10e6, outcome.NoBaseline}, {"forged: 300 per ns", 100e3, outcome.Unwitnessed}} {
		cell := timedCell(process(c.region, 1e6, c.region, 5, 0))
		cell.Count = counted(30_000_032, 30_000_032)
		v := Bench("c", map[string]Cell{"c": cell}, Gate{Alpha: 0.01})
		if v.Status != c.status || (c.status == outcome.Unwitnessed) != strings.Contains(v.Detail["c"], "more than a CPU retires") {
			t.Errorf("%s: %s %q", c.name, v.Status, v.Detail["c"])
		}
	}
}

// The witness's keys are recorded, read back and checked like any
// metric's.
func TestWitnessFields(t *testing.T) {
	e := witnessed()
	b, ok := witnessBase(e)
	if !ok || len(b.Samples) != 30 || b.Median < 0.97e6 || b.Median > 1.03e6 {
		t.Fatalf("recorded outside time %+v %v", b, ok)
	}
	for doc, want := range map[string]string{
		`"outside_ns": -1`: "field outside_ns",
		`"outside_ns": 5, "outside_samples": [1, -2]`: "field outside_samples[1]",
		`"outside_ns": "x"`:                           "field outside_ns must be an integer",
		`"outside_ns": 50, "outside_samples": [1, 2]`: "outside_ns",
	} {
		_, err := Parse("b.json", []byte(`{"benches": {"a": {"elapsed_ns": 100, `+doc+`}}}`))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s read: %v", doc, err)
		}
	}
	if _, err := Parse("b.json", []byte(`{"benches": {"a": {"elapsed_ns": 100, "outside_ns": 2, "outside_samples": [1, 2, 3]}}}`)); err != nil {
		t.Errorf("a good witness refused: %v", err)
	}
}

// The outside figure is derived only where a sample carries both figures
// and the region fits its process.
func TestWithOutside(t *testing.T) {
	c := CellOf([]map[string]int64{{wire.ElapsedNs: 10, wire.WallNs: 15}, {wire.ElapsedNs: 10}, {wire.ElapsedNs: 20, wire.WallNs: 5}})
	if o := c[OutsideNs]; len(o.Samples) != 1 || o.Samples[0] != 5 {
		t.Fatalf("outside %+v", o)
	}
}
