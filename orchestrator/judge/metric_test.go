package judge

import (
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
)

// bisect's --metric: the default rule, a compared metric by name, and a
// refusal that lists what it can walk by.
func TestWalked(t *testing.T) {
	cases := []struct {
		name    string
		counted bool
		want    *Metric
		err     string
	}{
		{"", true, Instructions, ""},
		{"", false, MetricTime, ""},
		{"time", true, MetricTime, ""},
		{"instructions", false, Instructions, ""},
		{"memory", true, nil, "--metric=memory: give one of time, instructions"},
		{"cycles", true, nil, "--metric=cycles: give one of time, instructions"},
	}
	for _, c := range cases {
		m, err := Walked(c.name, c.counted)
		if m != c.want || (err == nil) != (c.err == "") || (err != nil && err.Error() != c.err) {
			t.Errorf("Walked(%q, %v) = %v, %v; want %v, %q", c.name, c.counted, m, err, c.want, c.err)
		}
	}
}

// A registered metric is listed after the three, by name, until taken out;
// a name declared twice is refused.
func TestRegister(t *testing.T) {
	gc := &Metric{Name: "gc_count", Unit: "collections", Of: "gc_count"}
	undo := Register(gc)
	if got := strings.Join(Names(), ","); got != "time,memory,instructions,cpu,gc_count" {
		t.Fatalf("names %s", got)
	}
	if m, ok := ByName("gc_count"); !ok || m != gc || !m.Sampled() || Instructions.Sampled() {
		t.Fatalf("ByName: %v %v", m, ok)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("time declared twice was accepted")
			}
		}()
		Register(&Metric{Name: "time"})
	}()
	undo()
	if got := strings.Join(Names(), ","); got != "time,memory,instructions,cpu" {
		t.Fatalf("after undo: %s", got)
	}
}

// Each metric reads its own baseline fields, and an entry without them
// does not gate it.
func TestBaselineFields(t *testing.T) {
	band, memBand := 0.1, 0.2
	e := &Entry{ElapsedNs: 1000, Tolerance: &band, MemKB: 4096, MemTolerance: &memBand, Instructions: 5000}
	for _, c := range []struct {
		m      *Metric
		median int64
	}{{MetricTime, 1000}, {MetricMemory, 4096}, {Instructions, 5000}} {
		b, ok := c.m.Baseline(e)
		if !ok || b.Median != c.median {
			t.Errorf("%s: %+v %v", c.m.Name, b, ok)
		}
		if _, ok := c.m.Baseline(&Entry{}); ok {
			t.Errorf("%s gated by an empty entry", c.m.Name)
		}
	}
}

// Instructions are exact: one instruction over the band regresses, the
// band's edge does not.
func TestInstructionsExact(t *testing.T) {
	b := Base{Median: 1000, Band: 0.01}
	if v := Instructions.Judge(Values{Median: 1010}, b, 0); v.Status != outcome.OK {
		t.Errorf("at the band: %+v", v)
	}
	if v := Instructions.Judge(Values{Median: 1011}, b, 0); v.Status != outcome.Regression || !strings.Contains(v.Why, "+11") {
		t.Errorf("over the band: %+v", v)
	}
	if v := Instructions.Judge(Values{Median: 989}, b, 0); v.Status != outcome.Improved {
		t.Errorf("under the band: %+v", v)
	}
}

// Each sampled metric records its own baseline keys from the runs' cells,
// and every declared metric's keys are checked when a file is read.
func TestRecordAndDeclaredFields(t *testing.T) {
	cell := func(el []int64, mem []int64) MetricCell {
		return MetricCell{"elapsed_ns": {Median: el[1], Samples: el}, "mem_peak_kb": {Median: mem[1], Samples: mem},
			"maxrss_kb": {Median: 900, Samples: []int64{900, 900, 900}}}
	}
	e := &Entry{}
	Record(e, []MetricCell{cell([]int64{90, 100, 110}, []int64{1000, 1000, 1000}), cell([]int64{100, 110, 120}, []int64{1000, 1100, 1200})})
	if e.ElapsedNs != 105 || e.Runs != 2 || len(e.RunMedians) != 2 || len(e.Samples) != 6 || e.Noise == nil || e.DriftSigma == nil {
		t.Errorf("time's keys: %+v", e)
	}
	if e.MemKB != 1000 || e.MemPeakKB != 1000 || e.MaxRSSKB != 900 || e.MemSource != "mem_peak_kb" || e.MemTolerance == nil || *e.MemTolerance < MemBandFloor {
		t.Errorf("memory's keys: %+v", e)
	}
	if e.Instructions != 0 {
		t.Errorf("instructions recorded from samples: %d", e.Instructions)
	}
	for field, doc := range map[string]string{
		"mem_tolerance": `"mem_kb": 5, "mem_tolerance": -1`,
		"band":          `"band": 2`,
		"count_band":    `"instructions": 5, "count_scope": "region", "valgrind_version": "v", "count_band": 0`,
	} {
		_, err := Parse("b.json", []byte(`{"benches": {"a": {"elapsed_ns": 100, `+doc+`}}}`))
		if err == nil || !strings.Contains(err.Error(), "field "+field) {
			t.Errorf("%s out of range read: %v", field, err)
		}
	}
}

// The metrics compare can set side by side are those the samples carry:
// not instructions, and a registered sampled metric too.
func TestSampledNames(t *testing.T) {
	if got := SampledNames(); got != "time, memory, cpu" {
		t.Fatalf("sampled: %s", got)
	}
	undo := Register(&Metric{Name: "gc_count", Unit: "collections", Of: "gc_count"})
	defer undo()
	if got := SampledNames(); got != "time, memory, cpu, gc_count" {
		t.Fatalf("with gc_count: %s", got)
	}
}
