package judge

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
)

func TestParity(t *testing.T) {
	cases := []struct {
		name     string
		in       map[string]string
		verdict  string
		mismatch []string
		agreed   string
	}{
		{"none", map[string]string{}, ParityNone, nil, ""},
		{"single", map[string]string{"c": "n:1"}, ParitySingle, nil, "n:1"},
		{"all agree", map[string]string{"c": "n:1", "go": "n:1", "py": "n:1"}, ParityOK, nil, "n:1"},
		{"one differs", map[string]string{"c": "n:1", "go": "n:2", "py": "n:1"}, ParityMismatch, []string{"go"}, "n:1"},
		{"tie", map[string]string{"c": "n:1", "go": "n:2"}, ParityMismatch, []string{"c", "go"}, ""},
		{"missing check", map[string]string{"c": "n:1", "go": ""}, ParityMismatch, []string{"go"}, "n:1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, m, a := Parity(c.in)
			if v != c.verdict || !reflect.DeepEqual(m, c.mismatch) || a != c.agreed {
				t.Fatalf("got %s %v %q, want %s %v %q", v, m, a, c.verdict, c.mismatch, c.agreed)
			}
		})
	}
}

func ok(check string, median int64) Cell {
	return Cell{Status: outcome.OK, Check: check, Median: median}
}

// Every status a bench can take, from the cells the runner gives.
func TestBench(t *testing.T) {
	tol := 0.30
	base := &Entry{ElapsedNs: 1000, Tolerance: &tol}
	cases := []struct {
		name     string
		cells    map[string]Cell
		entry    *Entry
		status   outcome.Status
		subject  outcome.Status // the subject's cell after judging ("" : no cell)
		parity   string
		ratios   map[string]float64
		detailed []string // languages with a detail
	}{
		{"ok", map[string]Cell{"hale": ok("n:1", 1200), "c": ok("n:1", 600)}, base,
			outcome.OK, outcome.OK, ParityOK, map[string]float64{"c": 0.5}, nil},
		{"regression", map[string]Cell{"hale": ok("n:1", 1301), "c": ok("n:1", 1301)}, base,
			outcome.Regression, outcome.Regression, ParityOK, map[string]float64{"c": 1}, []string{"hale"}},
		{"faster is never a regression", map[string]Cell{"hale": ok("n:1", 10)}, base,
			outcome.Improved, outcome.OK, ParitySingle, map[string]float64{}, nil},
		{"no baseline", map[string]Cell{"hale": ok("n:1", 10)}, nil,
			outcome.NoBaseline, outcome.OK, ParitySingle, map[string]float64{}, nil},
		{"subject's check differs", map[string]Cell{"hale": ok("n:2", 900), "c": ok("n:1", 900), "go": ok("n:1", 1800)}, base,
			outcome.StatusParityMismatch, outcome.StatusParityMismatch, ParityMismatch, map[string]float64{"c": 1, "go": 2}, []string{"hale"}},
		{"a comparative's check differs", map[string]Cell{"hale": ok("n:1", 900), "c": ok("n:1", 900), "go": ok("n:3", 1800)}, base,
			outcome.OK, outcome.OK, ParityMismatch, map[string]float64{"c": 1, "go": 2}, []string{"go"}},
		{"a comparative's sampler could not confine", map[string]Cell{"hale": ok("n:1", 900), "go": {Status: outcome.Unconfined}}, base,
			outcome.Unconfined, outcome.OK, ParitySingle, map[string]float64{}, []string{"go"}},
		{"subject unavailable", map[string]Cell{"hale": {Status: outcome.Unavailable}, "c": ok("n:1", 9)}, base,
			outcome.SubjectUnavailable, outcome.Unavailable, ParitySingle, map[string]float64{}, nil},
		{"no subject source, baseline kept", map[string]Cell{"c": ok("n:1", 9), "go": ok("n:1", 9)}, base,
			outcome.NoSubjectSource, "", ParityOK, map[string]float64{}, []string{"hale"}},
		{"no subject source", map[string]Cell{"c": ok("n:1", 9), "go": ok("n:1", 9)}, nil,
			outcome.NoSubjectSource, "", ParityOK, map[string]float64{}, nil},
		{"subject failed to build", map[string]Cell{"hale": {Status: outcome.BuildFailed}, "c": ok("n:1", 9)}, base,
			outcome.BuildFailed, outcome.BuildFailed, ParitySingle, map[string]float64{}, nil},
		{"subject timed out", map[string]Cell{"hale": {Status: outcome.Timeout}}, base,
			outcome.Timeout, outcome.Timeout, ParityNone, map[string]float64{}, nil},
		{"a comparative crashed", map[string]Cell{"hale": ok("n:1", 1000), "c": {Status: outcome.RunFailed}}, base,
			outcome.OK, outcome.OK, ParitySingle, map[string]float64{}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := Bench("hale", c.cells, Gate{Entry: c.entry, Alpha: 0.01})
			if v.Status != c.status || v.Parity != c.parity {
				t.Fatalf("status %s parity %s, want %s %s", v.Status, v.Parity, c.status, c.parity)
			}
			if got := v.Cells["hale"]; got != c.subject {
				t.Fatalf("subject cell %q, want %q", got, c.subject)
			}
			if !reflect.DeepEqual(v.Ratios, c.ratios) {
				t.Fatalf("ratios %v, want %v", v.Ratios, c.ratios)
			}
			if len(v.Detail) != len(c.detailed) {
				t.Fatalf("details %v, want for %v", v.Detail, c.detailed)
			}
			for _, l := range c.detailed {
				if v.Detail[l] == "" {
					t.Fatalf("no detail for %s: %v", l, v.Detail)
				}
			}
		})
	}
}

// around draws n samples spread ±spread around m, deterministically.
func around(m int64, spread float64, n, phase int) []int64 {
	out := make([]int64, n)
	for i := range out {
		k := float64((i*7+phase)%n)/float64(n-1)*2 - 1 // -1..1, shuffled
		out[i] = m + int64(k*spread*float64(m))
	}
	return out
}

func cellOf(samples []int64) Cell {
	med := samples[0]
	s := append([]int64{}, samples...)
	for i := range s {
		for j := i + 1; j < len(s); j++ {
			if s[j] < s[i] {
				s[i], s[j] = s[j], s[i]
			}
		}
	}
	med = s[len(s)/2]
	return Cell{Status: outcome.OK, Check: "n:1", Median: med, Samples: samples}
}

func measuredEntry(median int64, samples []int64, noise, drift float64) *Entry {
	band := 0.0
	e := &Entry{ElapsedNs: median, Noise: &noise, DriftSigma: &drift, Samples: samples}
	band = e.Tol()
	e.Band = &band
	return e
}

func TestTimeVerdicts(t *testing.T) {
	base := around(1_000_000, 0.02, 25, 0)
	e := measuredEntry(1_000_000, base, 0.004, 0.01) // band clamp(4×0.01) = 0.05
	cases := []struct {
		name    string
		samples []int64
		want    outcome.Status
	}{
		{"unchanged", around(1_000_000, 0.02, 5, 3), outcome.OK},
		{"30% slower", around(1_300_000, 0.02, 10, 1), outcome.Regression},
		{"a little slower, within the band", around(1_030_000, 0.02, 10, 1), outcome.OK},
		{"over the band but overlapping", []int64{1_060_000, 900_000, 1_200_000, 980_000, 1_080_000, 1_070_000, 1_010_000}, outcome.Inconclusive},
		{"too noisy to resolve the band", []int64{600_000, 1_000_000, 1_400_000, 800_000, 1_200_000}, outcome.Inconclusive},
		{"30% faster", around(700_000, 0.02, 10, 2), outcome.Improved},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := Time(cellOf(c.samples), e, 0.01)
			if v.Status != c.want {
				t.Fatalf("%s (ratio %.3f band %.3f noise %.4f p %v: %s), want %s", v.Status, v.Ratio, v.Band, v.Noise, v.P, v.Why, c.want)
			}
			if v.Status != outcome.OK && v.Why == "" {
				t.Fatal("no reason given")
			}
		})
	}
}

func TestMemoryVerdicts(t *testing.T) {
	band := 0.01
	e := &Entry{ElapsedNs: 1000, MemKB: 10_000, MemTolerance: &band, MemSamples: []int64{10_000, 10_004, 9_996, 10_000, 10_002}}
	same := Cell{Status: outcome.OK, Median: 1000, Figures: MetricCell{"mem_peak_kb": {Median: 10_100, Samples: []int64{10_100, 10_104, 10_096}}}}
	if m := Memory(same, e, 0.01); m == nil || m.Status != outcome.OK || m.Band != MemBandFloor {
		t.Fatalf("same memory: %+v", m)
	}
	twice := Cell{Status: outcome.OK, Median: 1000, Figures: MetricCell{"mem_peak_kb": {Median: 20_000, Samples: []int64{20_000, 20_008, 19_996, 20_004, 20_000}}}}
	if m := Memory(twice, e, 0.01); m == nil || m.Status != outcome.MemRegression || m.P == nil || *m.P >= 0.01 {
		t.Fatalf("twice the memory: %+v", m)
	}
	if Memory(twice, &Entry{ElapsedNs: 1000, MaxRSSKB: 5}, 0.01) != nil {
		t.Fatal("an entry without a recorded memory band gates memory")
	}
	tol := 0.3
	v := Bench("c", map[string]Cell{"c": twice}, Gate{Entry: &Entry{ElapsedNs: 1000, Tolerance: &tol, MemKB: 10_000, MemTolerance: &band, MemSamples: e.MemSamples}, Alpha: 0.01})
	if v.Status != outcome.MemRegression || v.Cells["c"] != outcome.MemRegression || v.Checks["memory"] == nil || v.Checks["time"] == nil || v.Checks["time"].Status != outcome.OK {
		t.Fatalf("bench %+v", v)
	}
}

func TestIncomparableMachineAndSuspect(t *testing.T) {
	tol := 0.3
	e := &Entry{ElapsedNs: 1000, Tolerance: &tol}
	slow := ok("n:1", 5000)
	v := Bench("c", map[string]Cell{"c": slow}, Gate{Entry: e, Alpha: 0.01, Incomparable: "CPU Xeon here, Ryzen in the baseline"})
	if v.Status != outcome.IncomparableMachine || v.Cells["c"] != outcome.OK || v.Checks["time"] != nil {
		t.Fatalf("another machine's baseline gated: %+v", v)
	}
	if !Suspect(slow, Gate{Entry: e}) || Suspect(ok("n:1", 1100), Gate{Entry: e}) || Suspect(slow, Gate{Entry: e, Incomparable: "x"}) || Suspect(slow, Gate{}) {
		t.Fatal("suspect")
	}
}

func TestRun(t *testing.T) {
	cases := []struct {
		in   []BenchStatus
		want outcome.Status
	}{
		{[]BenchStatus{{outcome.OK, true}, {outcome.NoBaseline, false}, {outcome.SubjectUnavailable, true}, {outcome.Improved, true}}, outcome.OK},
		{[]BenchStatus{{outcome.OK, true}, {outcome.Inconclusive, true}}, outcome.Inconclusive},
		{[]BenchStatus{{outcome.Inconclusive, true}, {outcome.Regression, true}}, outcome.Regression},
		{[]BenchStatus{{outcome.MemRegression, true}}, outcome.Regression},
		{[]BenchStatus{{outcome.Regression, true}, {outcome.BuildFailed, false}}, outcome.Failed},
		{[]BenchStatus{{outcome.StatusParityMismatch, true}}, outcome.Failed},
		{[]BenchStatus{{outcome.NoSubjectSource, true}}, outcome.Failed},
		{[]BenchStatus{{outcome.NoSubjectSource, false}}, outcome.OK},
		{[]BenchStatus{{outcome.NoBench, true}}, outcome.Failed},
		{[]BenchStatus{{outcome.IncomparableMachine, true}}, outcome.OK},
	}
	for _, c := range cases {
		if got := Run(c.in); got != c.want {
			t.Errorf("Run(%v) = %s, want %s", c.in, got, c.want)
		}
	}
}

// Against an entry without samples (the seed's), the run's own interval
// decides: far over the band is a regression however noisy; just over it
// with a wide interval cannot be told.
func TestTimeWithoutBaselineSamples(t *testing.T) {
	tol := 0.3
	e := &Entry{ElapsedNs: 1000, Tolerance: &tol}
	noisy := []int64{600_000, 1_000_000, 1_400_000, 800_000, 1_200_000}
	if v := Time(cellOf(noisy), e, 0.01); v.Status != outcome.Regression {
		t.Fatalf("a thousand times the baseline: %s (%s)", v.Status, v.Why)
	}
	justOver := []int64{900, 1350, 1800, 1100, 1600}
	if v := Time(cellOf(justOver), e, 0.01); v.Status != outcome.Inconclusive {
		t.Fatalf("just over, noisy: %s (%s)", v.Status, v.Why)
	}
}

// A shift must stand out from how far medians move between runs on this
// host: the same 40% over a measured band is a regression where runs
// agree within 1%, inconclusive where they wander by 24%.
func TestTimeAccountsForBetweenRunDrift(t *testing.T) {
	base := around(1_000_000, 0.02, 25, 0)
	steady := measuredEntry(1_000_000, base, 0.004, 0.01)
	wandering := measuredEntry(1_000_000, base, 0.004, 0.24)
	slow := cellOf(around(1_400_000, 0.02, 10, 1))
	if v := Time(slow, steady, 0.01); v.Status != outcome.Regression {
		t.Fatalf("steady host: %s (%s)", v.Status, v.Why)
	}
	// The 30% slowdown, on a host quiet enough to resolve it.
	if v := Time(cellOf(around(1_300_000, 0.02, 10, 1)), steady, 0.01); v.Status != outcome.Regression {
		t.Fatalf("+30%% on a steady host: %s (%s)", v.Status, v.Why)
	}
	if v := Time(slow, wandering, 0.01); v.Status != outcome.Inconclusive || v.P == nil || *v.P < 0.01 {
		t.Fatalf("wandering host: %s p %v (%s)", v.Status, v.P, v.Why)
	}
}

// A small bench's peak wanders with the page cache it touches first: a
// growth under MemMinDeltaKB does not regress, however significant.
func TestSmallMemoryGrowthIsNoise(t *testing.T) {
	band := 0.05
	e := &Entry{ElapsedNs: 1000, MemKB: 256, MemTolerance: &band, MemSamples: []int64{256, 256, 256, 256, 256, 256}}
	c := Cell{Status: outcome.OK, Median: 1000, Figures: MetricCell{"mem_peak_kb": {Median: 300, Samples: []int64{300, 310, 300, 290, 300, 305}}}}
	if m := Memory(c, e, 0.01); m == nil || m.Status != outcome.OK {
		t.Fatalf("256 → 300 KiB: %+v", m)
	}
}

// A bench whose own five runs happened to agree is still judged with the
// drift the host gave the file's other benches: what moved them can move it.
func TestQuietBenchOnADriftingHost(t *testing.T) {
	base := around(1_000_000, 0.01, 25, 0)
	doc := fmt.Sprintf(`{"updated_at": "x", "benches": {
	  "quiet": {"kind": "micro", "elapsed_ns": 1000000, "maxrss_kb": 1, "noise": 0.004, "drift_sigma": 0.01, "band": 0.05, "samples": %s},
	  "b": {"kind": "micro", "elapsed_ns": 1, "maxrss_kb": 1, "drift_sigma": 0.12},
	  "c": {"kind": "micro", "elapsed_ns": 1, "maxrss_kb": 1, "drift_sigma": 0.15},
	  "d": {"kind": "micro", "elapsed_ns": 1, "maxrss_kb": 1, "drift_sigma": 0.20}}}`, jsonInts(base))
	f, err := Parse("b.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	slower := cellOf(around(1_180_000, 0.01, 10, 1))
	if v := Time(slower, f.Benches["quiet"], 0.01); v.Status != outcome.OK || v.Band < 0.35-1e-9 {
		t.Fatalf("+18%% on a host whose runs drift 13.5%%: %s, band %v (%s)", v.Status, v.Band, v.Why)
	}
	own, _ := Parse("q.json", []byte(fmt.Sprintf(`{"updated_at": "x", "benches": {"quiet": {"kind": "micro", "elapsed_ns": 1000000, "maxrss_kb": 1, "noise": 0.004, "drift_sigma": 0.01, "band": 0.05, "samples": %s}}}`, jsonInts(base))))
	if v := Time(slower, own.Benches["quiet"], 0.01); v.Status != outcome.Regression {
		t.Fatalf("the same shift against the bench's own drift alone: %s (%s)", v.Status, v.Why)
	}
}

func jsonInts(xs []int64) string {
	b, _ := json.Marshal(xs)
	return string(b)
}

// The baseline's machine is compared once: the same machine gates, a file
// that records none gates as the seed's did (with a warning), another
// machine gates nothing unless told to (with a warning either way).
func TestMachine(t *testing.T) {
	here := BaselineMachine{CPUModel: "A", LogicalCPUs: 2, Privilege: "all-caps", CgroupVersion: "1"}
	other := here
	other.CPUModel = "B"
	entries := map[string]*Entry{"x": {ElapsedNs: 1}}
	cases := []struct {
		name    string
		f       *File
		any     bool
		machine string
		gates   bool
		warns   bool
	}{
		{"same", &File{Machine: &here, Benches: entries}, false, "same", true, false},
		{"empty file", &File{Benches: map[string]*Entry{}}, false, "same", true, false},
		{"no machine", &File{Benches: entries}, false, "unknown", false, true},
		{"no machine, any machine", &File{Benches: entries}, true, "unknown", true, true},
		{"other", &File{Machine: &other, Benches: entries}, false, "differs: CPU A here, B in the baseline", false, true},
		{"other, any machine", &File{Machine: &other, Benches: entries}, true, "differs: CPU A here, B in the baseline", true, true},
	}
	for _, c := range cases {
		g := Machine(c.f, "b.json", here, c.any)
		if g.Machine != c.machine || (g.Incomparable == "") != c.gates || (g.Warning != "") != c.warns {
			t.Errorf("%s: %+v", c.name, g)
		}
	}
}
