package harness_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/harness"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/runner"
)

// count answers a count job as the sampler would: one count per run, the
// nth counted run of a (language, bench) counting irs[n] (cycling).
func (f *fakeEngine) count(w runner.Where, j runner.Job) runner.Outcome {
	f.countJobs = append(f.countJobs, j)
	if f.countCPUs == nil {
		f.countCPUs, f.runsOf = map[string]bool{}, map[string]int{}
	}
	f.countCPUs[w.CPUs] = true
	o := runner.Outcome{Status: outcome.OK, Samples: []runner.Sample{}, Env: runner.Env{Valgrind: "valgrind-3.19.0", CgroupVersion: "v1"}}
	irs, ok := f.counts[w.Lang]
	for i := 0; i < j.Count.Runs; i++ {
		if !ok {
			o.Counts = append(o.Counts, runner.Count{Status: wire.CountFailed, Detail: "valgrind: unrecognised instruction"})
			continue
		}
		n := f.runsOf[w.Lang+"/"+j.Unit]
		f.runsOf[w.Lang+"/"+j.Unit]++
		o.Counts = append(o.Counts, runner.Count{Status: wire.CountOK, Scope: wire.ScopeRegion, Ir: irs[n%len(irs)], WallNs: 1e6})
	}
	return o
}

// barrier lets its first n callers through only once all n have come.
type barrier struct {
	mu      sync.Mutex
	n, came int
	all     chan struct{}
}

func newBarrier(n int) *barrier { return &barrier{n: n, all: make(chan struct{})} }

func (b *barrier) wait() {
	b.mu.Lock()
	b.came++
	switch {
	case b.came == b.n:
		close(b.all)
	case b.came > b.n:
		b.mu.Unlock()
		return
	}
	b.mu.Unlock()
	select {
	case <-b.all:
	case <-time.After(time.Minute): // not a time target: a serial count lane would wait forever
		panic("count jobs did not run in parallel")
	}
}

// countedRuns is how many counted runs the count jobs asked for.
func (f *fakeEngine) countedRuns() int {
	n := 0
	for _, j := range f.countJobs {
		n += j.Count.Runs
	}
	return n
}

// countedC is a plan whose c is counted, as count-sampler's branch makes
// it (no language is counted on this one).
func countedC(t *testing.T, o harness.Options) *harness.Plan {
	t.Helper()
	p, err := harness.Prepare(o)
	if err != nil {
		t.Fatalf("prepare: %v", err)
	}
	for i, l := range p.Languages {
		if l.Name == "c" {
			l.CountCompile, l.CountTarget, l.CountScope = "cc -O2 -march=x86-64-v3 -o $OUT $SRC", "x86-64-v3", wire.ScopeRegion
			p.Languages[i] = l
			p.SubjectLang = l
		}
		if l.Name == "go" { // whatever go is on the branch this merges with
			l.NotCounted = "go: not counted in this test"
			p.Languages[i] = l
		}
	}
	return p
}

func runCounted(t *testing.T, o harness.Options, eng *fakeEngine) (*harness.Result, error) {
	t.Helper()
	return harness.Run(context.Background(), fakeEnv(fakeImages{}, eng, 2), countedC(t, o))
}

// --update-baselines --count=only records counts alone (no timed sample,
// the time figures untouched); a later pass doing 10 % more work in its
// timed region is a count regression: exit 1, flagged by instructions,
// with the exact delta. 0.4 % more stays inside the 0.5 % band.
func TestFakeCountOnlyGate(t *testing.T) {
	o := fakeOptions(t, "c", "c", "count")
	timeFile := `{"updated_at": "2026-01-01T00:00:00Z", "subject": "c", "benches": {"count": {"kind": "micro", "elapsed_ns": 5000, "maxrss_kb": 7, "tolerance": 0.30}}}`
	os.WriteFile(o.Baselines, []byte(timeFile), 0o644)
	o.Count, o.UpdateBaselines = harness.CountOnly, true
	eng := &fakeEngine{counts: map[string][]uint64{"c": {1000000}}}
	res, err := runCounted(t, o, eng)
	if err != nil {
		t.Fatal(err)
	}
	// Recording keeps two runs: the first, then the rest bounded by its time.
	if eng.countedRuns() != 2 || len(eng.iters) != 2 || eng.iters[0]+eng.iters[1] != 0 {
		t.Fatalf("count-only took timed samples or miscounted: iters %v, %d counted runs", eng.iters, eng.countedRuns())
	}
	if rb := res.Report.Rebaseline; rb == nil || len(rb.CountsRecorded) != 1 {
		t.Fatalf("rebaseline %+v", res.Report.Rebaseline)
	}
	f, err := judge.Load(o.Baselines)
	if err != nil {
		t.Fatal(err)
	}
	if e := f.Benches["count"]; e.Instructions != 1000000 || e.ElapsedNs != 5000 || *e.Tolerance != 0.30 || e.CountTarget != "x86-64-v3" || f.CountsUpdatedAt == "" {
		t.Fatalf("entry %+v", e)
	}
	o.UpdateBaselines = false
	for _, c := range []struct {
		ir   uint64
		want outcome.Status
		err  error
	}{{1000000, outcome.OK, nil}, {1004000, outcome.OK, nil}, {1100000, outcome.Regression, harness.ErrRegression}, {1020000, outcome.Regression, harness.ErrRegression}} {
		eng := &fakeEngine{counts: map[string][]uint64{"c": {c.ir}}}
		res, err := runCounted(t, o, eng)
		// The baseline repeated to the instruction: one run equal to it
		// settles the cell; one that differs asks a second.
		if want := 2; eng.countedRuns() != want-btoi(c.ir == 1000000) {
			t.Fatalf("%d: %d counted runs", c.ir, eng.countedRuns())
		}
		if !errors.Is(err, c.err) {
			t.Fatalf("%d: err %v, want %v", c.ir, err, c.err)
		}
		b := bench(res.Report, "count")
		if b.Status != c.want || b.CountVerdict != c.want || *b.SubjectResult.Count.Delta != int64(c.ir)-1000000 {
			t.Fatalf("%d: bench %s count %s lane %+v", c.ir, b.Status, b.CountVerdict, b.SubjectResult.Count)
		}
		if c.want == outcome.Regression && (strings.Join(res.Report.FlaggedBy, ",") != "instructions" || res.Report.Status != outcome.Regression) {
			t.Fatalf("flagged by %v, run %s", res.Report.FlaggedBy, res.Report.Status)
		}
	}
}

// A count that fails leaves time judged (count_failed beside an ok time);
// a comparative that cannot be counted is not_counted with the reason;
// unstable counts are reported with their spread; the report's count
// block says what was counted and what it cost.
func TestFakeCountBesideTime(t *testing.T) {
	o := fakeOptions(t, "c,go", "c", "count")
	o.Count, o.CountLangs = harness.CountAuto, "go"
	eng := &fakeEngine{elapsed: map[string]int64{"c": 5000, "go": 6000}, check: map[string]string{"c": "n:1", "go": "n:1"}}
	res, err := runCounted(t, o, eng)
	if err != nil {
		t.Fatal(err)
	}
	b := bench(res.Report, "count")
	if b.Status != outcome.NoBaseline || b.CountVerdict != outcome.CountFailed || !strings.Contains(b.SubjectResult.Count.Reason, "unrecognised instruction") {
		t.Fatalf("bench %s count %s lane %+v", b.Status, b.CountVerdict, b.SubjectResult.Count)
	}
	if g := b.Comparatives["go"].Count; g == nil || g.Verdict != outcome.NotCounted || g.Reason == "" {
		t.Fatalf("go's count lane %+v", g)
	}
	if len(b.SubjectResult.ElapsedNsSamples) != 3 || b.SubjectResult.Status != outcome.OK {
		t.Fatalf("time not measured beside a failed count: %+v", b.SubjectResult)
	}
	c := res.Report.Count
	if c == nil || c.Mode != "auto" || strings.Join(c.Languages, ",") != "c,go" || c.Runs != 2 || c.Cells != 1 {
		t.Fatalf("count block %+v", c)
	}
	eng.counts = map[string][]uint64{"c": {1000000, 1001000}}
	res, _ = runCounted(t, o, eng)
	if cl := bench(res.Report, "count").SubjectResult.Count; cl.Verdict != outcome.CountUnstable || cl.Spread != 0.001 || len(cl.Runs) != 2 {
		t.Fatalf("unstable lane %+v", cl)
	}
}

// --count-budget bounds the count lane's wall time: once it is spent the
// benches left are not counted, and the report names them; before, no
// counted run gets more than the budget left.
func TestFakeCountBudget(t *testing.T) {
	o := fakeOptions(t, "c", "c", "")
	o.Count, o.CountBudget = harness.CountOnly, time.Nanosecond
	eng := &fakeEngine{counts: map[string][]uint64{"c": {5}}}
	res, err := runCounted(t, o, eng)
	if err != nil {
		t.Fatal(err)
	}
	if len(eng.countJobs) != 0 || len(res.Report.Count.OverBudget) != len(res.Report.Benches) {
		t.Fatalf("%d count jobs, over budget %v", len(eng.countJobs), res.Report.Count.OverBudget)
	}
	for _, b := range res.Report.Benches {
		if b.CountVerdict != outcome.NotCounted || !strings.Contains(b.SubjectResult.Count.Reason, "over budget") {
			t.Fatalf("%s: %s %+v", b.Name, b.CountVerdict, b.SubjectResult.Count)
		}
	}
	o.CountBudget = time.Hour
	eng = &fakeEngine{counts: map[string][]uint64{"c": {5}}}
	if _, err := runCounted(t, o, eng); err != nil {
		t.Fatal(err)
	}
	for _, j := range eng.countJobs {
		if d := time.Duration(j.Count.TimeoutNs); d <= 0 || d > time.Hour {
			t.Fatalf("a counted run bounded by %s under a 1 h budget", d)
		}
	}
}

// The count lane runs after the timed lane, one job per CPU (both here;
// --count-jobs=1 the one CPU 0 is not), and the report says how many
// jobs ran on which CPUs and which cell was counted where. A cell whose
// timed samples failed is not counted, with the reason.
func TestFakeCountLaneInParallel(t *testing.T) {
	o := fakeOptions(t, "c,python", "c", "")
	o.Count, o.CountLangs = harness.CountAuto, "python"
	eng := &fakeEngine{elapsed: map[string]int64{"c": 5000}, check: map[string]string{"c": "n:1"}, counts: map[string][]uint64{"c": {9}, "python": {9}},
		together: newBarrier(2)}
	res, err := runCounted(t, o, eng)
	if err != nil {
		t.Fatal(err)
	}
	c := res.Report.Count
	if c.Jobs != 2 || strings.Join(c.CPUs, ",") != "0,1" || len(eng.countCPUs) != 2 {
		t.Fatalf("count block %+v; jobs ran on %v", c, eng.countCPUs)
	}
	for i, w := range eng.jobs {
		if eng.iters[i] > 0 && w.CPUs != "1" {
			t.Fatalf("a timed job ran on cpus %s", w.CPUs)
		}
	}
	crashed := 0
	for _, b := range res.Report.Benches {
		cl := b.SubjectResult.Count
		if cl == nil || cl.Verdict != outcome.NoBaseline || (cl.CPUs != "0" && cl.CPUs != "1") || cl.TimeoutNs != int64(runner.CountFloor) {
			t.Fatalf("%s: c's count lane %+v", b.Name, cl)
		}
		py := b.Comparatives["python"]
		if py == nil {
			continue
		}
		crashed++
		if g := py.Count; g == nil || g.Verdict != outcome.NotCounted || !strings.Contains(g.Reason, "timed samples ended run_failed") || len(g.Runs) != 0 {
			t.Fatalf("%s: python's count lane %+v", b.Name, py.Count)
		}
	}
	if crashed == 0 {
		t.Fatal("no bench has a python comparative")
	}
	o.CountJobs = 1
	eng = &fakeEngine{elapsed: map[string]int64{"c": 5000}, check: map[string]string{"c": "n:1"}, counts: map[string][]uint64{"c": {9}}}
	res, _ = runCounted(t, o, eng)
	if c := res.Report.Count; c.Jobs != 1 || strings.Join(c.CPUs, ",") != "1" || len(eng.countCPUs) != 1 || !eng.countCPUs["1"] {
		t.Fatalf("--count-jobs=1: count block %+v, jobs on %v", c, eng.countCPUs)
	}
}

// A guard is not counted unless --count-guards asks.
func TestFakeGuardsNotCountedByDefault(t *testing.T) {
	o := fakeOptions(t, "c", "c", "")
	o.Suite, o.Count = "testdata/guardsuite", harness.CountOnly
	eng := &fakeEngine{counts: map[string][]uint64{"c": {9}}}
	res, err := runCounted(t, o, eng)
	if err != nil {
		t.Fatal(err)
	}
	if g := bench(res.Report, "flat"); g.CountVerdict != outcome.NotCounted || g.SubjectResult.Count.Reason != harness.NotCountedGuard {
		t.Fatalf("guard: %s %+v", g.CountVerdict, g.SubjectResult.Count)
	}
	if b := bench(res.Report, "count"); b.CountVerdict != outcome.NoBaseline || eng.countedRuns() != 2 || res.Report.Count.Guards {
		t.Fatalf("count: %s, %d counted runs", b.CountVerdict, eng.countedRuns())
	}
	o.CountGuards = true
	eng = &fakeEngine{counts: map[string][]uint64{"c": {9}}}
	res, _ = runCounted(t, o, eng)
	if g := bench(res.Report, "flat"); g.CountVerdict != outcome.NoBaseline || eng.countedRuns() != 4 || !res.Report.Count.Guards {
		t.Fatalf("--count-guards: %s, %d counted runs", g.CountVerdict, eng.countedRuns())
	}
}

// In the seed's layout the guards sit in micro/ with the others: a bench
// with a subject program alone and no baseline is known as a guard there
// (not counted by default); one with siblings, or with a baseline, is
// counted.
func TestFakeSeedLayoutGuardsNotCounted(t *testing.T) {
	o := fakeOptions(t, "c", "c", "")
	o.Suite, o.Count = "testdata/seedguards", harness.CountOnly
	os.WriteFile(o.Baselines, []byte(`{"updated_at": "2026-01-01T00:00:00Z", "subject": "c", "benches": {"gated": {"kind": "micro", "elapsed_ns": 5000, "maxrss_kb": 7, "tolerance": 0.30}}}`), 0o644)
	eng := &fakeEngine{counts: map[string][]uint64{"c": {9}}}
	res, err := runCounted(t, o, eng)
	if err != nil {
		t.Fatal(err)
	}
	if g := bench(res.Report, "flat"); g.CountVerdict != outcome.NotCounted || g.SubjectResult.Count.Reason != harness.NotCountedGuard {
		t.Errorf("flat (subject alone, no baseline): %s %+v", g.CountVerdict, g.SubjectResult.Count)
	}
	for _, name := range []string{"count", "gated"} {
		if b := bench(res.Report, name); b.CountVerdict == outcome.NotCounted {
			t.Errorf("%s: not counted (%+v)", name, b.SubjectResult.Count)
		}
	}
	if n := eng.countedRuns(); n != 4 {
		t.Errorf("%d counted runs, want 4 (count and gated, twice each)", n)
	}
}

// The count flags are checked before anything runs.
func TestPrepareRejectsBadCountFlags(t *testing.T) {
	for _, c := range []struct {
		set  func(*harness.Options)
		want string
	}{
		{func(o *harness.Options) { o.Count = "sometimes" }, "--count=sometimes"},
		{func(o *harness.Options) { o.CountRuns = 1 }, "--count-runs=1"},
		{func(o *harness.Options) { o.CountBudget = -time.Second }, "--count-budget"},
		{func(o *harness.Options) { o.CountLangs = "rust" }, "--count-langs=rust"},
		{func(o *harness.Options) { o.Count, o.CountLangs = "off", "c" }, "need counting"},
		{func(o *harness.Options) { o.CountJobs = -1 }, "--count-jobs=-1"},
		{func(o *harness.Options) { o.Count, o.CountGuards = "off", true }, "need counting"},
	} {
		o := fakeOptions(t, "c", "c", "")
		o.Count = harness.CountAuto
		c.set(&o)
		if _, err := harness.Prepare(o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("err %v, want one naming %s", err, c.want)
		}
	}
}

// --update-baselines under --count=auto records time from every pass and
// counts from the last alone (counts do not drift).
func TestFakeUpdateRecordsTimeAndCounts(t *testing.T) {
	o := fakeOptions(t, "c", "c", "count")
	o.UpdateBaselines, o.Runs, o.Count = true, 3, harness.CountAuto
	eng := &fakeEngine{elapsed: map[string]int64{"c": 5000}, check: map[string]string{"c": "n:1"}, counts: map[string][]uint64{"c": {777}}}
	if _, err := runCounted(t, o, eng); err != nil {
		t.Fatal(err)
	}
	if eng.countedRuns() != 2 {
		t.Fatalf("%d counted runs over 3 passes, want the last pass's 2", eng.countedRuns())
	}
	f, err := judge.Load(o.Baselines)
	if err != nil {
		t.Fatal(err)
	}
	if e := f.Benches["count"]; e.Instructions != 777 || e.ElapsedNs != 5000 || e.Runs != 3 {
		t.Fatalf("entry %+v", e)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Under --count=only a comparative that is not counted measures nothing:
// it is skipped with the reason, never "ok" with no sample (which the
// grid once printed as "0 ns"), and no job is sent for it.
func TestFakeCountOnlyComparativeSkipped(t *testing.T) {
	o := fakeOptions(t, "c,go", "c", "count")
	o.Count = harness.CountOnly
	eng := &fakeEngine{counts: map[string][]uint64{"c": {1000000}}}
	res, err := runCounted(t, o, eng)
	if err != nil && !errors.Is(err, harness.ErrRegression) {
		t.Fatal(err)
	}
	b := bench(res.Report, "count")
	g := b.Comparatives["go"]
	if g == nil || g.Status != outcome.Skipped || g.Detail != harness.NotTimedNotCounted || len(g.ElapsedNsSamples) != 0 {
		t.Fatalf("go under --count=only: %+v", g)
	}
	if b.SubjectResult.Count == nil || b.SubjectResult.Count.Verdict == "" {
		t.Fatalf("the subject was not counted: %+v", b.SubjectResult)
	}
	var grid strings.Builder
	report.Grid(&grid, res.Report)
	if strings.Contains(grid.String(), "0 ns") || !strings.Contains(grid.String(), "skipped") {
		t.Fatalf("grid:\n%s", grid.String())
	}
}
