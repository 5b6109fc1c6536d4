package harness_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/harness"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
)

// rebaseline records count's baseline for c from the fake's figures, over
// five independent runs, on the fake machine.
func rebaseline(t *testing.T, o harness.Options, eng *fakeEngine) *judge.File {
	t.Helper()
	o.UpdateBaselines = true
	if _, err := runFake(t, context.Background(), fakeEnv(fakeImages{}, eng, 2), o); err != nil {
		t.Fatalf("rebaseline: %v", err)
	}
	f, err := judge.Load(o.Baselines)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// jittered gives each sample a small deterministic spread around m.
func jittered(m int64) func(string, int) int64 {
	return func(_ string, n int) int64 { return m + int64((n*37)%11)*m/1000 }
}

// --update-baselines records five independent runs: every run a fresh set
// of containers, the medians' drift, the noise, the band, the samples and
// the machine.
func TestFakeRebaselineRecordsRunsAndMachine(t *testing.T) {
	o := fakeOptions(t, "c", "c", "count")
	eng := &fakeEngine{elapsed: map[string]int64{"c": 1000}, check: map[string]string{"c": "n:1"}, timeOf: jittered(100_000)}
	f := rebaseline(t, o, eng)
	e := f.Benches["count"]
	if e == nil || e.Runs != 5 || len(e.RunMedians) != 5 || len(e.Samples) != 15 || e.Band == nil || e.Noise == nil || e.DriftSigma == nil {
		t.Fatalf("entry %+v", e)
	}
	if *e.Band < judge.BandFloor || *e.Band > judge.BandCeil || e.MemSource != "mem_peak_kb" || e.MemKB != 2048 || e.MemTolerance == nil {
		t.Fatalf("band %v, memory %s %d", *e.Band, e.MemSource, e.MemKB)
	}
	if f.Machine == nil || f.Machine.CPUModel != "Fake CPU" || f.Machine.LogicalCPUs != 2 || f.Machine.Cpusets["count"] != "1" || f.Machine.SubjectToolchain != "c 1.0" {
		t.Fatalf("machine %+v", f.Machine)
	}
	for _, n := range eng.iters {
		if n != 1 {
			t.Fatalf("a job of %d samples: samples are not interleaved", n)
		}
	}
	if len(eng.jobs) != 15 {
		t.Fatalf("%d jobs for 5 runs of 3 samples", len(eng.jobs))
	}
	o.Runs = 1
	var log strings.Builder
	o.Log = &log
	rebaseline(t, o, eng)
	if !strings.Contains(log.String(), "a guess") {
		t.Fatalf("a one-run update does not say its band is a guess: %s", log.String())
	}
}

// A/A on fakes: the unchanged program passes; a 30% slower one is a
// regression after confirmation; a suspect that does not confirm is not.
func TestFakeVerdicts(t *testing.T) {
	o := fakeOptions(t, "c", "c", "count")
	o.Confirm = 5
	rebaseline(t, o, &fakeEngine{elapsed: map[string]int64{"c": 1}, check: map[string]string{"c": "n:1"}, timeOf: jittered(100_000)})

	same := &fakeEngine{elapsed: map[string]int64{"c": 1}, check: map[string]string{"c": "n:1"}, timeOf: jittered(100_000)}
	res, err := runFake(t, context.Background(), fakeEnv(fakeImages{}, same, 2), o)
	if err != nil || bench(res.Report, "count").Status != outcome.OK || res.Report.Gate.Machine != "same" {
		t.Fatalf("unchanged: err %v status %s machine %q", err, bench(res.Report, "count").Status, res.Report.Gate.Machine)
	}

	slow := &fakeEngine{elapsed: map[string]int64{"c": 1}, check: map[string]string{"c": "n:1"}, timeOf: jittered(130_000)}
	res, err = runFake(t, context.Background(), fakeEnv(fakeImages{}, slow, 2), o)
	b := bench(res.Report, "count")
	if !errors.Is(err, harness.ErrRegression) || b.Status != outcome.Regression || b.ConfirmSamples != 5 || len(b.ElapsedNsSamples) != 8 {
		t.Fatalf("30%% slower: err %v status %s confirm %d samples %d", err, b.Status, b.ConfirmSamples, len(b.ElapsedNsSamples))
	}
	if b.TimeVerdict == nil || b.TimeVerdict.P == nil || *b.TimeVerdict.P >= 0.01 || !strings.Contains(b.Verdict, "over its") {
		t.Fatalf("verdict %+v %q", b.TimeVerdict, b.Verdict)
	}
	// The confirm samples are rounds of the executor, one sample a job,
	// as the bench's own were: 3 + 5 jobs.
	if len(slow.iters) != 8 || slices.ContainsFunc(slow.iters, func(n int) bool { return n != 1 }) {
		t.Fatalf("jobs' samples %v; want 8 jobs of one sample (3, then 5 to confirm)", slow.iters)
	}

	// Three unlucky samples, then the confirmation shows the usual figures.
	fluke := &fakeEngine{elapsed: map[string]int64{"c": 1}, check: map[string]string{"c": "n:1"}, timeOf: func(l string, n int) int64 {
		if n < 3 {
			return 140_000
		}
		return jittered(100_000)(l, n)
	}}
	res, err = runFake(t, context.Background(), fakeEnv(fakeImages{}, fluke, 2), o)
	if b := bench(res.Report, "count"); err != nil || b.Status == outcome.Regression || b.ConfirmSamples != 5 {
		t.Fatalf("fluke: err %v status %s", err, b.Status)
	}
}

// Twice the memory is a memory regression, exit 1, even at the same speed.
func TestFakeMemoryRegression(t *testing.T) {
	o := fakeOptions(t, "c", "c", "count")
	rebaseline(t, o, &fakeEngine{elapsed: map[string]int64{"c": 1}, check: map[string]string{"c": "n:1"}, timeOf: jittered(100_000), peakKB: 4096})
	res, err := runFake(t, context.Background(), fakeEnv(fakeImages{}, &fakeEngine{elapsed: map[string]int64{"c": 1}, check: map[string]string{"c": "n:1"}, timeOf: jittered(100_000), peakKB: 8192}, 2), o)
	b := bench(res.Report, "count")
	if !errors.Is(err, harness.ErrRegression) || b.Status != outcome.MemRegression || b.MemVerdict == nil || b.MemVerdict.Ratio != 2 {
		t.Fatalf("err %v status %s mem %+v", err, b.Status, b.MemVerdict)
	}
}

// A baseline from another machine does not gate (one warning, exit 0);
// --gate-any-machine gates anyway; a file without a machine gates as the
// seed's did, with a warning.
func TestFakeMachineAwareGate(t *testing.T) {
	o := fakeOptions(t, "c", "c", "count")
	rebaseline(t, o, &fakeEngine{elapsed: map[string]int64{"c": 1}, check: map[string]string{"c": "n:1"}, timeOf: jittered(100_000)})
	data, _ := os.ReadFile(o.Baselines)
	var doc map[string]any
	json.Unmarshal(data, &doc)
	doc["machine"].(map[string]any)["cpu_model"] = "AMD Ryzen 7 9800X3D"
	data, _ = json.Marshal(doc)
	os.WriteFile(o.Baselines, data, 0o644)

	slow := func() *fakeEngine {
		return &fakeEngine{elapsed: map[string]int64{"c": 1}, check: map[string]string{"c": "n:1"}, timeOf: jittered(200_000)}
	}
	res, err := runFake(t, context.Background(), fakeEnv(fakeImages{}, slow(), 2), o)
	if err != nil || bench(res.Report, "count").Status != outcome.IncomparableMachine || !strings.Contains(res.Report.Gate.Machine, "Ryzen") {
		t.Fatalf("another machine: err %v status %s gate %+v", err, bench(res.Report, "count").Status, res.Report.Gate)
	}
	n := 0
	for _, w := range res.Report.Warnings {
		if strings.Contains(w, "another machine") {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d warnings about the machine: %v", n, res.Report.Warnings)
	}
	o.GateAnyMachine = true
	if _, err := runFake(t, context.Background(), fakeEnv(fakeImages{}, slow(), 2), o); !errors.Is(err, harness.ErrRegression) {
		t.Fatalf("--gate-any-machine: %v", err)
	}
	o.GateAnyMachine = false
	delete(doc, "machine")
	data, _ = json.Marshal(doc)
	os.WriteFile(o.Baselines, data, 0o644)
	// A file that records no machine (the seed's) cannot say its times
	// were taken here: they do not gate unless --gate-any-machine asks.
	res, err = runFake(t, context.Background(), fakeEnv(fakeImages{}, slow(), 2), o)
	if err != nil || res.Report.Gate.Machine != "unknown" || bench(res.Report, "count").Status != outcome.IncomparableMachine {
		t.Fatalf("no machine recorded: err %v gate %+v", err, res.Report.Gate)
	}
	o.GateAnyMachine = true
	res, err = runFake(t, context.Background(), fakeEnv(fakeImages{}, slow(), 2), o)
	if !errors.Is(err, harness.ErrRegression) || res.Report.Gate.Machine != "unknown" {
		t.Fatalf("no machine recorded, --gate-any-machine: err %v gate %+v", err, res.Report.Gate)
	}
}

// Failures fail: a subject that does not compile, and a bench whose
// baseline outlived its subject program; --strict fails an inconclusive.
func TestFakeFailuresFail(t *testing.T) {
	o := fakeOptions(t, "c,go", "c", "count")
	noC := &fakeEngine{elapsed: map[string]int64{"go": 1000}, check: map[string]string{"go": "n:1"}}
	res, err := runFake(t, context.Background(), fakeEnv(fakeImages{}, noC, 2), o)
	if !errors.Is(err, harness.ErrFailed) || bench(res.Report, "count").Status != outcome.RunFailed {
		t.Fatalf("crashing subject: %v", err)
	}

	// The baseline names "gone", which the suite does not have.
	os.WriteFile(o.Baselines, []byte(`{"updated_at": "x", "subject": "c", "benches": {"gone": {"kind": "micro", "elapsed_ns": 5, "maxrss_kb": 1}}}`), 0o644)
	o.Bench = ""
	ok := &fakeEngine{elapsed: map[string]int64{"c": 1000, "go": 1000}, check: map[string]string{"c": "n:1", "go": "n:1"}}
	res, err = runFake(t, context.Background(), fakeEnv(fakeImages{}, ok, 2), o)
	if g := bench(res.Report, "gone"); !errors.Is(err, harness.ErrFailed) || g == nil || g.Status != outcome.NoBench {
		t.Fatalf("a bench gone from the suite: err %v bench %+v", err, g)
	}

	// Too noisy to resolve the band: inconclusive, exit 0; --strict: 1.
	o.Bench = "count"
	os.Remove(o.Baselines)
	rebaseline(t, o, &fakeEngine{elapsed: map[string]int64{"c": 1, "go": 1}, check: map[string]string{"c": "n:1", "go": "n:1"}, timeOf: jittered(100_000)})
	wild := func() *fakeEngine {
		return &fakeEngine{elapsed: map[string]int64{"c": 1, "go": 1}, check: map[string]string{"c": "n:1", "go": "n:1"},
			timeOf: func(_ string, n int) int64 { return []int64{50_000, 100_000, 150_000}[n%3] }}
	}
	res, err = runFake(t, context.Background(), fakeEnv(fakeImages{}, wild(), 2), o)
	if err != nil || bench(res.Report, "count").Status != outcome.Inconclusive || res.Report.Status != outcome.Inconclusive {
		t.Fatalf("noisy: err %v status %s", err, bench(res.Report, "count").Status)
	}
	o.Strict = true
	if _, err := runFake(t, context.Background(), fakeEnv(fakeImages{}, wild(), 2), o); !errors.Is(err, harness.ErrInconclusive) {
		t.Fatalf("--strict: %v", err)
	}
}
