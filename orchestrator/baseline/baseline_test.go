package baseline

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestSeedFileLoadsUnchanged(t *testing.T) {
	f, err := Load("testdata/seed-baselines.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Benches) != 22 {
		t.Fatalf("%d benches, want 22", len(f.Benches))
	}
	fc := f.Benches["fn_call"]
	if fc.ElapsedNs != 19138505 || fc.MaxRSSKB != 5544 || fc.Tol() != 0.3 || fc.Kind != "micro" {
		t.Fatalf("fn_call = %+v", fc)
	}
	if f.Benches["bus_dispatch_cross_pool"].Tol() != 0.4 {
		t.Fatal("bus_dispatch_cross_pool tolerance not kept")
	}
}

func TestRegressed(t *testing.T) {
	tol := 0.3
	e := &Entry{ElapsedNs: 1000, Tolerance: &tol}
	cases := []struct {
		median int64
		want   bool
	}{{500, false}, {1000, false}, {1300, false}, {1301, true}, {5000, true}}
	for _, c := range cases {
		if got := e.Regressed(c.median); got != c.want {
			t.Errorf("Regressed(%d) = %v, want %v", c.median, got, c.want)
		}
	}
	if (&Entry{ElapsedNs: 100}).Limit() != 130 {
		t.Fatal("default tolerance is not 0.30")
	}
}

func TestInvalidFiles(t *testing.T) {
	cases := map[string]string{
		"syntax":      "{\n  \"benches\": {,}\n}",
		"no benches":  `{"updated_at": "x"}`,
		"bad type":    `{"benches": {"a": {"elapsed_ns": "fast"}}}`,
		"nonpositive": `{"benches": {"a": {"elapsed_ns": 0}}}`,
		"tolerance":   `{"benches": {"a": {"elapsed_ns": 5, "tolerance": -1}}}`,
		"null":        `{"benches": {"a": null}}`,
	}
	for name, doc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := Parse("b.json", []byte(doc))
			if err == nil || !strings.Contains(err.Error(), "baselines b.json") {
				t.Fatalf("err = %v", err)
			}
		})
	}
	_, err := Parse("b.json", []byte("{\n  \"benches\": {,}\n}"))
	if !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("syntax error does not name the line: %v", err)
	}
}

func TestUpdateKeepsToleranceAndNote(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "baselines.json")
	seed, _ := os.ReadFile("testdata/seed-baselines.json")
	os.WriteFile(path, seed, 0o644)
	_, names, err := Update(path, map[string]Measured{
		"bus_dispatch_cross_pool": {Kind: "micro", ElapsedNs: 42, MaxRSSKB: 7, MemPeakKB: 9},
		"brand_new":               {Kind: "micro", ElapsedNs: 5},
	}, Provenance{Subject: "hale", Toolchain: "hale 0.17.0"}, time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC))
	if err != nil || len(names) != 2 {
		t.Fatal(names, err)
	}
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	e := f.Benches["bus_dispatch_cross_pool"]
	if e.ElapsedNs != 42 || e.MemPeakKB != 9 || e.Tol() != 0.4 || !strings.HasPrefix(e.Note, "F.32-1 baseline") {
		t.Fatalf("updated entry %+v", e)
	}
	if f.Benches["brand_new"].Tol() != DefaultTolerance || f.Benches["fn_call"].ElapsedNs != 19138505 {
		t.Fatal("new or untouched entries wrong")
	}
	if f.UpdatedAt != "2026-12-02T00:00:00Z" || f.HaleVersion != "hale 0.17.0" {
		t.Fatalf("header %+v", f)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*.tmp-*"))
	if len(left) != 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

func TestConcurrentUpdatesLoseNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "baselines.json")
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			if _, _, err := Update(path, map[string]Measured{fmt.Sprint("b", i): {ElapsedNs: int64(i + 1)}}, Provenance{}, time.Now()); err != nil {
				t.Error(err)
			}
		}(i)
	}
	wg.Wait()
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Benches) != 20 {
		t.Fatalf("%d benches after 20 concurrent updates, want 20", len(f.Benches))
	}
}

func TestInvalidFileIsLeftUntouched(t *testing.T) {
	path := filepath.Join(t.TempDir(), "baselines.json")
	bad := []byte(`{"benches": {"a": {"elapsed_ns": "x"}}}`)
	os.WriteFile(path, bad, 0o644)
	if _, _, err := Update(path, map[string]Measured{"a": {ElapsedNs: 1}}, Provenance{}, time.Now()); err == nil {
		t.Fatal("update of an invalid file succeeded")
	}
	got, _ := os.ReadFile(path)
	if string(got) != string(bad) {
		t.Fatal("invalid file was changed")
	}
}

// A file carrying upstream's fields and keys halebench has never heard of
// keeps all of them through --update-baselines: the bench not re-measured
// is unchanged key for key, the re-measured one keeps its override, note
// and unknown keys, and the top level keeps its own.
func TestUpdateKeepsEveryUnknownField(t *testing.T) {
	path := filepath.Join(t.TempDir(), "baselines.json")
	doc := `{
  "updated_at": "2026-06-25T00:00:00Z",
  "hale_version": "0.16.2",
  "recorded_with": {"tool": "bench.sh", "rev": "abc123"},
  "x_future": [1, 2, 3],
  "benches": {
    "fn_modular": {"kind": "micro", "elapsed_ns": 1000, "maxrss_kb": 5, "noise": 0.004, "drift_sigma": 0.011,
                   "drift_range": 0.026, "runs": 5, "tolerance_override": 0.05, "note": "pinned after the 29% miss",
                   "x_upstream": {"seen": true}},
    "fn_call": {"kind": "micro", "elapsed_ns": 2000, "maxrss_kb": 6, "noise": 0.01, "drift_sigma": 0.02,
                "drift_range": 0.05, "runs": 3, "recorded_on": "ryzen", "tolerance": 0.3}
  }
}`
	os.WriteFile(path, []byte(doc), 0o644)
	before := parsed(t, []byte(doc))
	m := map[string]Measured{"fn_modular": {Kind: "micro", ElapsedNs: 1100, MaxRSSKB: 7, Noise: 0.01, DriftSigma: 0.02, DriftRange: 0.04, Runs: 5,
		RunMedians: []int64{1090, 1100, 1110, 1100, 1095}, Samples: []int64{1, 2}, MemSource: "mem_peak_kb", MemKB: 900, MemBand: 0.01}}
	mach := &Machine{CPUModel: "Test CPU", LogicalCPUs: 2, CgroupVersion: "v1", Privilege: "all-caps"}
	if _, _, err := Update(path, m, Provenance{Subject: "c", Toolchain: "clang 19", Machine: mach}, time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	after := parsed(t, data)
	for _, k := range []string{"recorded_with", "x_future", "hale_version"} {
		if !reflect.DeepEqual(after[k], before[k]) {
			t.Errorf("top-level %s: %v, was %v", k, after[k], before[k])
		}
	}
	benches := func(doc map[string]any) map[string]any { return doc["benches"].(map[string]any) }
	if !reflect.DeepEqual(benches(after)["fn_call"], benches(before)["fn_call"]) {
		t.Errorf("fn_call changed:\n%v\nwas\n%v", benches(after)["fn_call"], benches(before)["fn_call"])
	}
	fm := benches(after)["fn_modular"].(map[string]any)
	if fm["tolerance_override"] != 0.05 || fm["note"] != "pinned after the 29% miss" || !reflect.DeepEqual(fm["x_upstream"], map[string]any{"seen": true}) {
		t.Errorf("fn_modular lost what it carried: %v", fm)
	}
	if fm["elapsed_ns"] != 1100.0 || fm["runs"] != 5.0 || fm["mem_tolerance"] != MemBandFloor || fm["band"] == nil {
		t.Errorf("fn_modular not updated: %v", fm)
	}
	f, err := Parse(path, data)
	if err != nil {
		t.Fatal(err)
	}
	if f.Machine == nil || f.Machine.CPUModel != "Test CPU" || f.Benches["fn_modular"].Tol() != 0.05 {
		t.Fatalf("machine %+v, tol %v", f.Machine, f.Benches["fn_modular"].Tol())
	}
}

func parsed(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// Where a band comes from: an override, the measured noise and drift,
// the hand tolerance, the default.
func TestTolSources(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	cases := []struct {
		e    Entry
		want float64
		src  string
	}{
		{Entry{ToleranceOverride: f(0.07), Band: f(0.2), Tolerance: f(0.3)}, 0.07, "tolerance_override"},
		{Entry{Band: f(0.12), Tolerance: f(0.3)}, 0.12, "measured"},
		{Entry{Noise: f(0.004), DriftSigma: f(0.02), Tolerance: f(0.3)}, 0.08, "measured"},
		{Entry{Noise: f(0.001)}, BandFloor, "measured"},
		{Entry{Tolerance: f(0.4)}, 0.4, "tolerance"},
		{Entry{}, DefaultTolerance, "default"},
	}
	for _, c := range cases {
		if got := c.e.Tol(); got < c.want-1e-12 || got > c.want+1e-12 || c.e.TolSource() != c.src {
			t.Errorf("%+v: %v from %s, want %v from %s", c.e, got, c.e.TolSource(), c.want, c.src)
		}
	}
	if (&Entry{MemKB: 10}).MemTol() != nil {
		t.Error("a memory figure without a recorded band gates")
	}
	if got := (&Entry{MemKB: 10, MemTolerance: f(0.01)}).MemTol(); got == nil || *got != MemBandFloor {
		t.Errorf("memory band floor: %v", got)
	}
}

func TestMachineDifferences(t *testing.T) {
	m := &Machine{CPUModel: "Ryzen", LogicalCPUs: 16, CgroupVersion: "v2", Privilege: "privileged"}
	if d := m.Differences(*m); len(d) != 0 {
		t.Fatalf("same machine differs: %v", d)
	}
	d := m.Differences(Machine{CPUModel: "Xeon", LogicalCPUs: 2, CgroupVersion: "v2", Privilege: "privileged"})
	if len(d) != 2 || !strings.Contains(d[0], "Xeon here, Ryzen in the baseline") {
		t.Fatalf("differences %v", d)
	}
}

// Five runs of one bench can happen to move little: the median drift of
// the file's benches floors each one's drift and band, read or written.
func TestHostDriftFloorsEachBench(t *testing.T) {
	doc := `{"updated_at": "x", "benches": {
	  "quiet":  {"kind": "micro", "elapsed_ns": 100, "maxrss_kb": 1, "noise": 0.01, "drift_sigma": 0.01, "band": 0.05},
	  "middle": {"kind": "micro", "elapsed_ns": 100, "maxrss_kb": 1, "noise": 0.01, "drift_sigma": 0.05, "band": 0.20},
	  "loud":   {"kind": "micro", "elapsed_ns": 100, "maxrss_kb": 1, "noise": 0.01, "drift_sigma": 0.08, "band": 0.32},
	  "pinned": {"kind": "micro", "elapsed_ns": 100, "maxrss_kb": 1, "drift_sigma": 0.01, "tolerance_override": 0.03},
	  "seed":   {"kind": "micro", "elapsed_ns": 100, "maxrss_kb": 1, "tolerance": 0.3}}}`
	f, err := Parse("b.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	near := func(a, b float64) bool { return a > b-1e-12 && a < b+1e-12 }
	// Four benches recorded a drift: .01 .01 .05 .08, median .03.
	if d := f.Benches["quiet"].Drift(); !near(d, 0.03) {
		t.Errorf("quiet bench's drift %v, want the host's 0.03", d)
	}
	if d := f.Benches["loud"].Drift(); !near(d, 0.08) {
		t.Errorf("loud bench's drift %v, want its own 0.08", d)
	}
	if b := f.Benches["quiet"].Tol(); !near(b, 0.12) {
		t.Errorf("quiet bench's band %v, want 4 × 0.03", b)
	}
	if b := f.Benches["middle"].Tol(); !near(b, 0.20) {
		t.Errorf("middle bench's band %v, want its recorded 0.20", b)
	}
	if b := f.Benches["pinned"].Tol(); !near(b, 0.03) {
		t.Errorf("a tolerance_override is the maintainer's: %v, want 0.03", b)
	}
	if b := f.Benches["seed"].Tol(); !near(b, 0.3) {
		t.Errorf("seed entry's band %v, want its tolerance", b)
	}

	// Too few benches with a drift: no floor.
	g, err := Parse("c.json", []byte(`{"updated_at": "x", "benches": {
	  "a": {"kind": "micro", "elapsed_ns": 100, "maxrss_kb": 1, "drift_sigma": 0.01},
	  "b": {"kind": "micro", "elapsed_ns": 100, "maxrss_kb": 1, "drift_sigma": 0.30}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if d := g.Benches["a"].Drift(); !near(d, 0.01) {
		t.Errorf("two benches floored each other: %v", d)
	}

	// Written: the file records the host drift and each new band honours it.
	path := filepath.Join(t.TempDir(), "baselines.json")
	m := map[string]Measured{}
	for i, d := range []float64{0.002, 0.04, 0.05, 0.06, 0.07} {
		m[fmt.Sprintf("b%d", i)] = Measured{Kind: "micro", ElapsedNs: 1000, Noise: 0.001, DriftSigma: d, Runs: 5, RunMedians: []int64{1000, 1000, 1000, 1000, 1000}}
	}
	if _, _, err := Update(path, m, Provenance{Subject: "c"}, time.Unix(0, 0)); err != nil {
		t.Fatal(err)
	}
	w, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if w.HostDriftSigma == nil || !near(*w.HostDriftSigma, 0.05) {
		t.Fatalf("host_drift_sigma %v, want 0.05", w.HostDriftSigma)
	}
	if e := w.Benches["b0"]; e.Band == nil || !near(*e.Band, 0.20) || !near(*e.DriftSigma, 0.002) {
		t.Errorf("b0: band %v drift_sigma %v, want the band 4 × 0.05 and its own drift kept", e.Band, e.DriftSigma)
	}
}
