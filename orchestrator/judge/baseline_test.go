package judge

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
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

// Each broken or out-of-range figure is refused with an error naming the
// file and the field (the CLI exits 2 on it).
func TestInvalidFiles(t *testing.T) {
	entry := func(fields string) string {
		return `{"updated_at": "x", "benches": {"a": {"kind": "micro", "elapsed_ns": 100, "maxrss_kb": 1` + fields + `}}}`
	}
	cases := []struct{ name, doc, field string }{
		{"syntax", "{\n  \"benches\": {,}\n}", "line 2"},
		{"no benches", `{"updated_at": "x"}`, "benches"},
		{"bad type", `{"benches": {"a": {"elapsed_ns": "fast"}}}`, "elapsed_ns"},
		{"nonpositive", `{"benches": {"a": {"elapsed_ns": 0}}}`, "elapsed_ns"},
		{"null", `{"benches": {"a": null}}`, "null entry"},
		{"trailing garbage", entry("") + ` {"benches": {}}`, "text after the JSON object at line 1"},
		{"trailing word", entry("") + "\nx", "line 2"},
		{"host drift 1e9", `{"host_drift_sigma": 1e9, "benches": {}}`, "field host_drift_sigma is 1e+09"},
		{"negative host drift", `{"host_drift_sigma": -0.1, "benches": {}}`, "field host_drift_sigma"},
		{"a halebench record no halebench wrote", `{"halebench": {"version": "v1", "commit": "abc"}, "benches": {}}`, "halebench.commit"},
		{"negative tolerance", entry(`, "tolerance": -1`), "field tolerance is -1"},
		{"tolerance over 1", entry(`, "tolerance": 2`), "field tolerance is 2"},
		{"zero band", entry(`, "band": 0`), "field band is 0"},
		{"negative band", entry(`, "band": -0.2`), "field band"},
		{"override over 1", entry(`, "tolerance_override": 5`), "field tolerance_override"},
		{"memory band", entry(`, "mem_kb": 5, "mem_tolerance": -0.01`), "field mem_tolerance"},
		{"drift sigma 1e9", entry(`, "drift_sigma": 1e9`), "field drift_sigma"},
		{"negative noise", entry(`, "noise": -0.01`), "field noise"},
		{"drift range", entry(`, "drift_range": 1000`), "field drift_range"},
		{"negative rss", entry(`, "mem_peak_kb": -3`), "field mem_peak_kb is -3"},
		{"negative runs", entry(`, "runs": -1`), "field runs is -1"},
		{"negative sample", entry(`, "samples": [100, -5, 100]`), "field samples[1] is -5"},
		{"zero run median", entry(`, "runs": 2, "run_medians": [100, 0]`), "field run_medians[1]"},
		{"runs and medians disagree", entry(`, "runs": 3, "run_medians": [100, 100]`), "field run_medians holds 2"},
		{"median and samples disagree", entry(`, "samples": [150, 160, 170]`), "field elapsed_ns is 100, but the median of its own samples is 160"},
		{"memory and its samples disagree", entry(`, "mem_kb": 10, "mem_samples": [20, 20, 20]`), "field mem_kb is 10"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse("b.json", []byte(c.doc))
			var ie *InvalidError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), "baselines b.json") || !strings.Contains(err.Error(), c.field) {
				t.Fatalf("err = %v, want an InvalidError naming b.json and %q", err, c.field)
			}
		})
	}
	// Within MedianSlack of the samples' median, or with no samples: accepted.
	for _, doc := range []string{entry(`, "samples": [99, 100, 101]`), entry(`, "samples": [100, 101, 100, 101]`), entry(`, "tolerance": 1, "drift_sigma": 1, "noise": 0`)} {
		if _, err := Parse("b.json", []byte(doc)); err != nil {
			t.Errorf("%s: %v", doc, err)
		}
	}
}

// The file is read as a suite file: a symlink in its place (to a host file)
// and a FIFO (which would block the run) are refused, by name, promptly.
func TestLoadRefusesLinksAndFIFOs(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "secret.json")
	os.WriteFile(secret, []byte(`{"benches": {}}`), 0o600)
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(secret, link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.json")
	if err := unix.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{link: "symlink", fifo: "not a regular file"} {
		done := make(chan error, 1)
		go func() { _, err := Load(path); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "baselines "+path) || !strings.Contains(err.Error(), want) {
				t.Errorf("Load(%s) = %v, want an error naming it, %q", path, err, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("Load(%s) still blocked after 10s", path)
		}
	}
	if _, err := Load("../../baselines.json"); err != nil {
		t.Fatalf("the suite's own baselines.json: %v", err)
	}
}

// A committed symlink where the lock file goes is refused: the update does
// not create or touch what it points at.
func TestLockRefusesASymlink(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "baselines.json")
	target := filepath.Join(dir, "elsewhere")
	if err := os.Symlink(target, path+".lock"); err != nil {
		t.Fatal(err)
	}
	_, _, err := Update(path, recorded(map[string]figures{"a": {ElapsedNs: 1}}), Provenance{}, time.Now())
	if err == nil || !strings.Contains(err.Error(), "is a symlink") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Lstat(target); !os.IsNotExist(err) {
		t.Fatalf("the lock's symlink target was made: %v", err)
	}
	if _, err := os.Lstat(path); !os.IsNotExist(err) {
		t.Fatalf("baselines written despite the refused lock: %v", err)
	}
}

// An update keeps the file's mode: a 0664 file stays 0664 (not 0600, the
// temporary file's), and a new file is 0644.
func TestUpdateKeepsTheMode(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "baselines.json")
	if _, _, err := Update(path, recorded(map[string]figures{"a": {ElapsedNs: 1}}), Provenance{}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
		t.Fatalf("new file mode %v, want 0644", st.Mode().Perm())
	}
	if err := os.Chmod(path, 0o664); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Update(path, recorded(map[string]figures{"b": {ElapsedNs: 2}}), Provenance{}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(path); st.Mode().Perm() != 0o664 {
		t.Fatalf("mode after the update %v, want 0664 kept", st.Mode().Perm())
	}
}

func TestUpdateKeepsToleranceAndNote(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "baselines.json")
	seed, _ := os.ReadFile("testdata/seed-baselines.json")
	os.WriteFile(path, seed, 0o644)
	_, names, err := Update(path, recorded(map[string]figures{
		"bus_dispatch_cross_pool": {Kind: "micro", ElapsedNs: 42, MaxRSSKB: 7, MemPeakKB: 9},
		"brand_new":               {Kind: "micro", ElapsedNs: 5},
	}), Provenance{Subject: "hale", Toolchain: "hale 0.17.0"}, time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC))
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
			if _, _, err := Update(path, recorded(map[string]figures{fmt.Sprint("b", i): {ElapsedNs: int64(i + 1)}}), Provenance{}, time.Now()); err != nil {
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
	if _, _, err := Update(path, recorded(map[string]figures{"a": {ElapsedNs: 1}}), Provenance{}, time.Now()); err == nil {
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
	m := recorded(map[string]figures{"fn_modular": {Kind: "micro", ElapsedNs: 1100, MaxRSSKB: 7, Noise: 0.01, DriftSigma: 0.02, DriftRange: 0.04, Runs: 5,
		RunMedians: []int64{1090, 1100, 1110, 1100, 1095}, Samples: []int64{1090, 1100, 1110}, MemSource: "mem_peak_kb", MemKB: 900, MemBand: 0.01}})
	mach := &BaselineMachine{CPUModel: "Test CPU", LogicalCPUs: 2, CgroupVersion: "v1", Privilege: "all-caps"}
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
	m := &BaselineMachine{CPUModel: "Ryzen", LogicalCPUs: 16, CgroupVersion: "v2", Privilege: "privileged"}
	if d := m.Differences(*m); len(d) != 0 {
		t.Fatalf("same machine differs: %v", d)
	}
	d := m.Differences(BaselineMachine{CPUModel: "Xeon", LogicalCPUs: 2, CgroupVersion: "v2", Privilege: "privileged"})
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
	m := map[string]figures{}
	for i, d := range []float64{0.002, 0.04, 0.05, 0.06, 0.07} {
		m[fmt.Sprintf("b%d", i)] = figures{Kind: "micro", ElapsedNs: 1000, Noise: 0.001, DriftSigma: d, Runs: 5, RunMedians: []int64{1000, 1000, 1000, 1000, 1000}}
	}
	if _, _, err := Update(path, recorded(m), Provenance{Subject: "c"}, time.Unix(0, 0)); err != nil {
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
