package ab

import (
	"context"
	"math"
	"math/rand"
	"testing"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/runner"
)

// fakeSampler answers jobs with times drawn around each image's true
// time, under a drift common to both sides (a busy host), and logs the
// order of the jobs.
type fakeSampler struct {
	rng   *rand.Rand
	times map[string]float64 // image -> true ns
	fail  map[string]outcome.Status
	irs   map[string]uint64
	multi map[string]bool  // images whose program starts a second thread
	mems  map[string]int64 // image -> its cgroup memory peak, KiB (none: no peak)
	// outside, where set, is the process's time outside its region: its
	// samples carry a wall time; printed is the share of the region an
	// image prints as its elapsed_ns (none: all of it).
	outside float64
	printed map[string]float64
	calls   []runner.Where
	jobs    []runner.Job
	t       int
}

func (f *fakeSampler) Sample(ctx context.Context, w runner.Where, j runner.Job) runner.Outcome {
	f.calls, f.jobs = append(f.calls, w), append(f.jobs, j)
	if st := f.fail[w.Image]; st != "" {
		return runner.Outcome{Status: st, Detail: "compile error\nmore"}
	}
	f.t++
	drift := 1 + 0.25*math.Sin(float64(f.t)/7) // slow drift, shared
	if f.rng.Intn(25) == 0 {
		drift *= 3 // an outlier from a neighbour
	}
	ns := f.times[w.Image] * drift * (1 + 0.01*f.rng.NormFloat64())
	o := runner.Outcome{Status: outcome.OK, Samples: []runner.Sample{{Figures: wire.Figures{wire.ElapsedNs: int64(ns), wire.MaxRSSKB: 1}}}}
	if f.outside > 0 {
		o.Samples[0].Set(wire.WallNs, int64(ns+f.outside*drift))
		if p, ok := f.printed[w.Image]; ok {
			o.Samples[0].Set(wire.ElapsedNs, int64(ns*p))
		}
	}
	if kb, ok := f.mems[w.Image]; ok {
		kb += int64(f.rng.Intn(8))
		o.Samples[0].Set(wire.MemPeakKB, kb)
	}
	if j.Count != nil && f.irs[w.Image] > 0 {
		for i := range j.Count.Runs {
			o.Counts = append(o.Counts, runner.Count{Status: "ok", Scope: wire.ScopeRegion, Ir: f.irs[w.Image] + uint64(i), Threads: f.multi[w.Image]})
		}
	}
	return o
}

// SamplePair: ab sends no xproc pair.
func (f *fakeSampler) SamplePair(ctx context.Context, w runner.PairWhere, reader, producer runner.Job) (runner.Outcome, *runner.Outcome) {
	panic("ab sent an xproc pair")
}

func pair(name, a, b string) Pair {
	return Pair{Name: name, Lang: "c",
		A: Side{Where: runner.Where{Lang: "c", Image: a, CPUs: "1"}, Job: runner.Job{Unit: name, Count: &wire.CountJob{Runs: 2}}},
		B: Side{Where: runner.Where{Lang: "c", Image: b, CPUs: "1"}, Job: runner.Job{Unit: name, Count: &wire.CountJob{Runs: 2}}}}
}

func TestCompareFindsKnownEffects(t *testing.T) {
	f := &fakeSampler{rng: rand.New(rand.NewSource(3)),
		times: map[string]float64{"a1": 1e6, "b1": 1.10e6, "a2": 2e6, "b2": 2e6, "a3": 1e6, "b3": 0.9e6, "a4": 1e6},
		fail:  map[string]outcome.Status{"b4": outcome.BuildFailed},
		irs:   map[string]uint64{"a1": 1_000_000, "b1": 1_100_000}}
	pairs := []Pair{pair("slow", "a1", "b1"), pair("same", "a2", "b2"), pair("fast", "a3", "b3"), pair("broken", "a4", "b4")}
	pairs = append(pairs, Pair{Name: "gone", Lang: "c", A: pairs[0].A, B: Side{Missing: "no such bench in B"}})
	res := Compare(context.Background(), f, pairs, Settings{Seed: 42, Threshold: 0.03})
	want := map[string]outcome.Status{"slow": outcome.Slower, "same": outcome.Same, "fast": outcome.Faster, "broken": outcome.Missing, "gone": outcome.Missing}
	for _, b := range res.Benches {
		if b.Verdict != want[b.Name] {
			t.Errorf("%s: %s (ratio %.3f [%.3f, %.3f] after %d rounds; %s), want %s", b.Name, b.Verdict, b.Ratio, b.RatioLow, b.RatioHigh, b.Rounds, b.Detail, want[b.Name])
		}
		if b.Name == "slow" && (b.RatioLow > 1.10 || b.RatioHigh < 1.10 || b.InstrRatio != 1.1) {
			t.Errorf("slow: [%.3f, %.3f] should hold 1.10; instructions ratio %v", b.RatioLow, b.RatioHigh, b.InstrRatio)
		}
		if b.Name == "broken" && b.Detail != "B: build_failed compile error" {
			t.Errorf("broken: detail %q", b.Detail)
		}
	}
	if res.StoppedBy != "resolved" || res.Seed != 42 || res.LookLevel < 0.99 {
		t.Errorf("stopped by %s, seed %d, look level %v", res.StoppedBy, res.Seed, res.LookLevel)
	}
}

func TestCompareAAFlagsNothing(t *testing.T) {
	for seed := int64(1); seed <= 10; seed++ {
		f := &fakeSampler{rng: rand.New(rand.NewSource(seed)), times: map[string]float64{"x": 1e6, "y": 5e5, "z": 3e6}}
		res := Compare(context.Background(), f, []Pair{pair("x", "x", "x"), pair("y", "y", "y"), pair("z", "z", "z")}, Settings{Seed: seed})
		for _, b := range res.Benches {
			if b.Verdict == outcome.Slower || b.Verdict == outcome.Faster {
				t.Errorf("seed %d: A/A %s is %s (%.3f [%.3f, %.3f])", seed, b.Name, b.Verdict, b.Ratio, b.RatioLow, b.RatioHigh)
			}
		}
	}
}

// Each round pairs A and B of a bench back to back, on the same cpuset,
// in an order that is not always A first, and the same seed gives the same
// order; the first round warms up and counts, later rounds do neither.
func TestScheduleIsInterleavedAndSeeded(t *testing.T) {
	run := func(seed int64) []runner.Where {
		f := &fakeSampler{rng: rand.New(rand.NewSource(1)), times: map[string]float64{"a1": 1e6, "b1": 1e6, "a2": 1e6, "b2": 1e6}}
		Compare(context.Background(), f, []Pair{pair("one", "a1", "b1"), pair("two", "a2", "b2")}, Settings{Seed: seed, Warmup: 1, MinRounds: 6, MaxRounds: 8})
		for i, j := range f.jobs {
			if first := i < 4; (j.Warmup == 1) != first || (j.Count != nil) != first || j.Iters != 1 {
				t.Fatalf("job %d: warmup %d, count %v, iters %d", i, j.Warmup, j.Count != nil, j.Iters)
			}
		}
		return f.calls
	}
	calls := run(7)
	bFirst := 0
	for i := 0; i+1 < len(calls); i += 2 {
		x, y := calls[i], calls[i+1]
		if x.CPUs != y.CPUs || x.Image[1] != y.Image[1] || x.Image[0] == y.Image[0] {
			t.Fatalf("calls %d,%d are not one bench's A and B: %v %v", i, i+1, x, y)
		}
		if x.Image[0] == 'b' {
			bFirst++
		}
	}
	if bFirst == 0 || bFirst == len(calls)/2 {
		t.Fatalf("B went first %d of %d times: the order is not randomized", bFirst, len(calls)/2)
	}
	again := run(7)
	for i := range calls {
		if calls[i] != again[i] {
			t.Fatalf("seed 7 gave another order at job %d", i)
		}
	}
}

func TestBudgetAndInterruptStop(t *testing.T) {
	f := &fakeSampler{rng: rand.New(rand.NewSource(1)), times: map[string]float64{"a": 1e6, "b": 1.015e6}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := Compare(ctx, f, []Pair{pair("x", "a", "b")}, Settings{})
	if res.StoppedBy != "interrupted" || len(f.calls) != 0 {
		t.Fatalf("stopped by %s after %d jobs", res.StoppedBy, len(f.calls))
	}
	res = Compare(context.Background(), f, []Pair{pair("x", "a", "b")}, Settings{Budget: 1})
	if res.StoppedBy != "budget" || res.Benches[0].Verdict != outcome.Unresolved {
		t.Fatalf("budget: stopped by %s, %s", res.StoppedBy, res.Benches[0].Verdict)
	}
}

// The quantity a round's ratio is of comes through the metric registry:
// two sides alike in time but not in memory are the same by time and
// larger by memory.
func TestCompareByMetric(t *testing.T) {
	for _, tc := range []struct {
		m    *judge.Metric
		want outcome.Status
	}{{nil, outcome.Same}, {judge.MetricTime, outcome.Same}, {judge.MetricMemory, outcome.Slower}} {
		f := &fakeSampler{rng: rand.New(rand.NewSource(5)), times: map[string]float64{"a": 1e6, "b": 1e6},
			mems: map[string]int64{"a": 10_000, "b": 12_000}}
		res := Compare(context.Background(), f, []Pair{pair("m", "a", "b")}, Settings{Seed: 5, Metric: tc.m})
		b, name := res.Benches[0], "(default)"
		if tc.m != nil {
			name = tc.m.Name
		}
		if b.Verdict != tc.want {
			t.Errorf("metric %s: %s (ratio %.3f [%.3f, %.3f]), want %s", name, b.Verdict, b.Ratio, b.RatioLow, b.RatioHigh, tc.want)
		}
		if tc.m == judge.MetricMemory && (b.Ratio < 1.15 || b.Ratio > 1.25) {
			t.Errorf("memory ratio %.3f, want about 1.2", b.Ratio)
		}
	}
}
