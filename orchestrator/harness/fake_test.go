package harness_test

import (
	"context"
	"errors"
	"github.com/hale-lang/halebench/images/sampler/wire"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/harness"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// fakeImages has every toolchain but the ones it names unavailable.
type fakeImages struct{ unavailable map[string]string }

func (f fakeImages) SamplerToolchain(ctx context.Context) (image.Toolchain, error) {
	return image.Toolchain{Lang: "go", Status: image.Available, Ref: "fake/go"}, nil
}
func (f fakeImages) Base(ctx context.Context) (image.Base, error) { return image.Base{}, nil }
func (f fakeImages) Toolchain(ctx context.Context, l suite.Language) (image.Toolchain, error) {
	if why, ok := f.unavailable[l.Name]; ok {
		return image.Toolchain{Lang: l.Name, Status: image.Unavailable, Reason: why}, nil
	}
	return image.Toolchain{Lang: l.Name, Status: image.Available, Ref: "fake/tc-" + l.Name, Version: l.Name + " 1.0"}, nil
}
func (f fakeImages) BenchImage(ctx context.Context, l suite.Language, srcs []image.Source) (image.BenchImage, error) {
	return image.BenchImage{Ref: "fake/bench-" + l.Name}, nil
}

// fakeEngine answers each job with the samples its table gives: per
// language, an elapsed time and a check (a missing language crashes).
type fakeEngine struct {
	mu      sync.Mutex // the count lane's jobs run in parallel
	elapsed map[string]int64
	check   map[string]string
	peakKB  int64
	jobs    []runner.Where
	iters   []int                               // each job's sample count
	onJob   func(n int)                         // called before each job is answered
	timeOf  func(lang string, sample int) int64 // overrides elapsed where set
	samples map[string]int
	// counts answers a count job: per language, the instructions of each
	// counted run (a missing language's count fails).
	counts    map[string][]uint64
	countJobs []runner.Job
	countCPUs map[string]bool // the CPUs count jobs ran on
	runsOf    map[string]int  // counted runs so far, per language and bench
	// together, when set, holds the first count jobs until that many are
	// under way at once: proof that they run in parallel.
	together *barrier
}

func (f *fakeEngine) Privilege() (engine.Privilege, []engine.Attempt) {
	return engine.Privilege{Mode: engine.ModePrivileged}, nil
}
func (f *fakeEngine) CloseSamplers() []runner.Started {
	return []runner.Started{{Lang: "c", CPUs: "1", ContainerID: "fake"}}
}
func (f *fakeEngine) Sample(ctx context.Context, w runner.Where, j runner.Job) runner.Outcome {
	if j.Count != nil && f.together != nil {
		f.together.wait()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.jobs, f.iters = append(f.jobs, w), append(f.iters, j.Iters)
	if f.samples == nil {
		f.samples = map[string]int{}
	}
	if f.onJob != nil {
		f.onJob(len(f.jobs))
	}
	if ctx.Err() != nil {
		return runner.Outcome{Status: outcome.Interrupted, Samples: []runner.Sample{}}
	}
	if j.Count != nil {
		return f.count(w, j)
	}
	el, ok := f.elapsed[w.Lang]
	if !ok {
		return runner.Outcome{Status: outcome.RunFailed, Detail: "signal SIGSEGV",
			Samples: []runner.Sample{{Status: string(outcome.RunFailed), Signal: "SIGSEGV", StderrTail: "boom"}}}
	}
	peak := int64(2048)
	if f.peakKB > 0 {
		peak = f.peakKB
	}
	o := runner.Outcome{Status: outcome.OK, Env: runner.Env{Affinity: w.CPUs, MemPeakSource: "per-sample cgroup (fake)", CgroupVersion: "v1"}}
	for i := 0; i < j.Iters; i++ {
		e := el
		if f.timeOf != nil {
			e = f.timeOf(w.Lang, f.samples[w.Lang])
		}
		f.samples[w.Lang]++
		o.Samples = append(o.Samples, runner.Sample{Status: string(outcome.OK), Check: f.check[w.Lang],
			Figures: wire.Figures{wire.ElapsedNs: e, wire.MaxRSSKB: 1000, wire.MemPeakKB: peak, wire.WallNs: e + 1000}})
	}
	return o
}

// SamplePair: a run sends no xproc pair.
func (f *fakeEngine) SamplePair(ctx context.Context, w runner.PairWhere, reader, producer runner.Job) (runner.Outcome, *runner.Outcome) {
	panic("a run sent an xproc pair")
}

func fakeEnv(images fakeImages, eng *fakeEngine, ncpu int) harness.Env {
	return harness.Env{RunID: "fake-run-000001", Host: engine.HostInfo{LogicalCPUs: ncpu, CPUModel: "Fake CPU"}, Images: images,
		Ready: func(context.Context) (harness.Engine, error) { return eng, nil }}
}

func fakeOptions(t *testing.T, langs, subject, bench string) harness.Options {
	dir := t.TempDir()
	// A baselines file given by path must exist (else it gates nothing):
	// an empty one, which --update-baselines tests write over.
	if err := os.WriteFile(filepath.Join(dir, "baselines.json"), []byte(`{"benches": {}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return harness.Options{
		Suite: "testdata/suite", Bench: bench, Langs: langs, Subject: subject,
		Iters: 3, Warmup: 1, Timeout: time.Minute, Alpha: judge.DefaultAlpha, MemLimit: 1 << 30, OutCap: 1 << 20,
		Baselines: filepath.Join(dir, "baselines.json"), ResultsDir: filepath.Join(dir, "results"),
		// The fake answers time; the count lane's tests turn counting on.
		Count: "off",
	}
}

func runFake(t *testing.T, ctx context.Context, env harness.Env, o harness.Options) (*harness.Result, error) {
	t.Helper()
	p, err := harness.Prepare(o)
	if err != nil {
		t.Fatalf("prepare: %v", err)
	}
	return harness.Run(ctx, env, p)
}

// A forged baseline makes the subject regress; --update-baselines records
// the real median, keeping the note, and the rerun passes.
func TestFakeGateRegressionThenUpdate(t *testing.T) {
	eng := &fakeEngine{elapsed: map[string]int64{"c": 5000}, check: map[string]string{"c": "n:1"}}
	o := fakeOptions(t, "c", "c", "count")
	forged := `{"updated_at": "2026-01-01T00:00:00Z", "subject": "c", "benches": {"count": {"kind": "micro", "elapsed_ns": 1, "maxrss_kb": 1, "tolerance": 0.3, "note": "forged"}}}`
	os.WriteFile(o.Baselines, []byte(forged), 0o644)
	o.GateAnyMachine = true // the forged file records no machine
	res, err := runFake(t, context.Background(), fakeEnv(fakeImages{}, eng, 2), o)
	if !errors.Is(err, harness.ErrRegression) {
		t.Fatalf("err = %v, want a regression", err)
	}
	b := bench(res.Report, "count")
	if b.Status != outcome.Regression || res.Report.Status != outcome.Regression || b.SubjectResult.Status != outcome.Regression || !strings.Contains(b.SubjectResult.Detail, "over its 30.0% band") {
		t.Fatalf("bench %q, report %q, subject %+v", b.Status, res.Report.Status, b.SubjectResult)
	}
	if _, err := os.Stat(res.ReportPath); err != nil {
		t.Fatal("no report written:", err)
	}
	o.UpdateBaselines = true
	if _, err := runFake(t, context.Background(), fakeEnv(fakeImages{}, eng, 2), o); err != nil {
		t.Fatalf("update run: %v", err)
	}
	data, _ := os.ReadFile(o.Baselines)
	if !strings.Contains(string(data), `"note": "forged"`) || !strings.Contains(string(data), `"elapsed_ns": 5000`) {
		t.Fatalf("baselines after update:\n%s", data)
	}
	o.UpdateBaselines = false
	res, err = runFake(t, context.Background(), fakeEnv(fakeImages{}, eng, 2), o)
	if err != nil {
		t.Fatalf("rerun after update: %v", err)
	}
	if b := bench(res.Report, "count"); b.Status != outcome.OK || *b.BaselineElapsedNs != 5000 || b.BandFrom != "measured" {
		t.Fatalf("rerun status %q", b.Status)
	}
}

// The report keeps the seed's schema: the subject's figures at the top,
// each comparative's ratio against it, and where everything ran.
func TestFakeReportAssembly(t *testing.T) {
	eng := &fakeEngine{elapsed: map[string]int64{"c": 1000, "go": 3000, "python": 500}, check: map[string]string{"c": "n:1", "go": "n:1", "python": "n:1"}}
	res, err := runFake(t, context.Background(), fakeEnv(fakeImages{}, eng, 4), fakeOptions(t, "c,go,python", "c", "count"))
	if err != nil {
		t.Fatal(err)
	}
	r := res.Report
	b := bench(r, "count")
	if b.Status != outcome.NoBaseline || b.Parity != "ok" || *b.ElapsedNsMedian != 1000 || len(b.ElapsedNsSamples) != 3 || *b.MemPeakKBMedian != 2048 {
		t.Fatalf("bench %+v", b)
	}
	if g := b.Comparatives["go"]; *g.RatioVsSubject != 3 || g.RatioVsHale != nil || g.CPUs != "1" || g.CPUsShared || g.Image != "fake/bench-go" {
		t.Fatalf("go %+v", g)
	}
	if r.Host.MemPeakSource != "per-sample cgroup (fake)" || r.Host.Privilege.Mode != engine.ModePrivileged || r.Host.OrchestratorCPUs != "0" {
		t.Fatalf("host %+v", r.Host)
	}
	if r.Status != outcome.OK || r.SubjectStatus != string(image.Available) || len(r.Samplers) != 1 || r.SourcesDigest == "" {
		t.Fatalf("report %+v", r)
	}
	// Interleaved: a sample of each language in turn, round after round.
	var order []string
	for _, w := range eng.jobs {
		order = append(order, w.Lang)
	}
	if strings.Join(order, ",") != "c,go,python,c,go,python,c,go,python" {
		t.Fatalf("job order %v", order)
	}
}

// A sibling whose check differs is flagged, keeps its number, and the
// grid marks it.
func TestFakeParityMismatchIsFlagged(t *testing.T) {
	eng := &fakeEngine{elapsed: map[string]int64{"c": 1000, "go": 900, "python": 5000}, check: map[string]string{"c": "iters:1000000", "go": "iters:999999", "python": "iters:1000000"}}
	res, err := runFake(t, context.Background(), fakeEnv(fakeImages{}, eng, 2), fakeOptions(t, "c,go,python", "c", "count"))
	if err != nil {
		t.Fatal(err)
	}
	b := bench(res.Report, "count")
	if b.Parity != "mismatch" || b.Status != outcome.NoBaseline {
		t.Fatalf("parity %q status %q", b.Parity, b.Status)
	}
	if g := b.Comparatives["go"]; g.Status != outcome.StatusParityMismatch || g.ElapsedNsMedian <= 0 || !strings.Contains(g.Detail, "iters:999999") || g.RatioVsSubject == nil {
		t.Fatalf("go = %+v", g)
	}
	if p := b.Comparatives["python"]; p.Status != outcome.OK || p.Check != b.SubjectResult.Check {
		t.Fatalf("python = %+v", p)
	}
	var grid strings.Builder
	report.Grid(&grid, res.Report)
	if !strings.Contains(grid.String(), " !") || !strings.Contains(grid.String(), "parity_mismatch") {
		t.Fatalf("grid does not flag the mismatch:\n%s", grid.String())
	}
}

// Without the subject's toolchain the run measures the rest, gates nothing
// and says why; with RequireSubject it refuses.
func TestFakeSubjectUnavailable(t *testing.T) {
	eng := &fakeEngine{elapsed: map[string]int64{"c": 1000}, check: map[string]string{"c": "n:1"}}
	images := fakeImages{unavailable: map[string]string{"hale": "no hale source tree"}}
	o := fakeOptions(t, "c", "hale", "count")
	res, err := runFake(t, context.Background(), fakeEnv(images, eng, 2), o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Report.SubjectStatus != string(image.Unavailable) || len(res.Report.Warnings) == 0 {
		t.Fatalf("subject %q warnings %v", res.Report.SubjectStatus, res.Report.Warnings)
	}
	b := bench(res.Report, "count")
	if b.Status != outcome.NoSubjectSource || b.Comparatives["c"].Status != outcome.OK || b.Comparatives["c"].RatioVsSubject != nil {
		t.Fatalf("count = %q %+v", b.Status, b.Comparatives["c"])
	}
	o.RequireSubject = true
	_, err = runFake(t, context.Background(), fakeEnv(images, eng, 2), o)
	if err == nil || !strings.Contains(err.Error(), "require-subject") || !strings.Contains(err.Error(), "no hale source tree") {
		t.Fatalf("err = %v, want one naming --require-subject and the reason", err)
	}
	if errors.Is(err, judge.ErrUnmeasured) {
		t.Fatalf("--require-subject refuses before measuring (exit 2), got ErrUnmeasured: %v", err)
	}
}

// In CI (FailUnmeasured) a run without the subject's toolchain still
// measures the rest and writes its report, then ends in ErrUnmeasured
// naming why; with the subject there, FailUnmeasured changes nothing.
func TestFakeSubjectUnmeasuredInCI(t *testing.T) {
	eng := &fakeEngine{elapsed: map[string]int64{"c": 1000, "hale": 1000}, check: map[string]string{"c": "n:1", "hale": "n:1"}}
	images := fakeImages{unavailable: map[string]string{"hale": "the pinned release could not be fetched"}}
	o := fakeOptions(t, "c", "hale", "count")
	o.FailUnmeasured = true
	res, err := runFake(t, context.Background(), fakeEnv(images, eng, 2), o)
	if !errors.Is(err, judge.ErrUnmeasured) || !strings.Contains(err.Error(), "could not be fetched") || !strings.Contains(err.Error(), "CI") {
		t.Fatalf("err = %v, want ErrUnmeasured naming the reason and CI", err)
	}
	if res == nil || res.ReportPath == "" || res.Report.SubjectStatus != string(image.Unavailable) {
		t.Fatalf("the report is written all the same: %+v", res)
	}
	res, err = runFake(t, context.Background(), fakeEnv(fakeImages{}, eng, 2), o)
	if err != nil || res.Report.SubjectStatus != string(image.Available) {
		t.Fatalf("with hale there: err %v, subject %q", err, res.Report.SubjectStatus)
	}
}

// A crash keeps its failing sample and stderr; a bench needing more CPUs
// than the host has is skipped; a two-CPU bench on two CPUs shares CPU 0.
func TestFakeFailuresAndCPUs(t *testing.T) {
	eng := &fakeEngine{elapsed: map[string]int64{"go": 1000}, check: map[string]string{"go": "n:1"}}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "benches", "micro"), 0o755)
	for _, f := range []string{"one.c", "one.go", "two.go"} {
		os.WriteFile(filepath.Join(dir, "benches", "micro", f), []byte("// test\n"), 0o644)
	}
	os.WriteFile(filepath.Join(dir, "benches", "catalogue.json"), []byte(`{"benches": {"two": {"cpus": 2}}}`), 0o644)
	o := fakeOptions(t, "c,go", "c", "")
	o.Suite = dir
	res, err := runFake(t, context.Background(), fakeEnv(fakeImages{}, eng, 2), o)
	if !errors.Is(err, harness.ErrFailed) || res.Report.Status != outcome.Failed {
		t.Fatalf("a crashing subject: err %v, status %s", err, res.Report.Status)
	}
	one := bench(res.Report, "one")
	if s := one.SubjectResult; s.Status != outcome.RunFailed || !strings.Contains(s.Detail, "boom") || len(s.Samples) != 1 || one.Status != outcome.RunFailed {
		t.Fatalf("one = %q %+v", one.Status, s)
	}
	if g := bench(res.Report, "two").Comparatives["go"]; g.CPUs != "0-1" || !g.CPUsShared || g.Status != outcome.OK {
		t.Fatalf("two/go = %+v", g)
	}
	res, err = runFake(t, context.Background(), fakeEnv(fakeImages{}, eng, 1), o)
	if !errors.Is(err, harness.ErrFailed) {
		t.Fatal(err)
	}
	if g := bench(res.Report, "two").Comparatives["go"]; g.Status != outcome.Skipped || !strings.Contains(g.Detail, "needs 2 CPUs") {
		t.Fatalf("two/go on one CPU = %+v", g)
	}
}

// Cancelled mid-run: the partial report says interrupted and marks the
// cells it never reached.
func TestFakeInterrupt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	eng := &fakeEngine{elapsed: map[string]int64{"c": 1000}, check: map[string]string{"c": "n:1"}, onJob: func(n int) { cancel() }}
	res, err := runFake(t, ctx, fakeEnv(fakeImages{}, eng, 2), fakeOptions(t, "c", "c", ""))
	if !errors.Is(err, harness.ErrInterrupted) || res.Report.Status != outcome.Interrupted {
		t.Fatalf("err %v status %v", err, res.Report.Status)
	}
	if _, err := os.Stat(res.ReportPath); err != nil {
		t.Fatal("no partial report:", err)
	}
	if len(eng.jobs) != 1 || bench(res.Report, "spin").SubjectResult.Status != outcome.Interrupted {
		t.Fatalf("jobs %v, spin %+v", eng.jobs, bench(res.Report, "spin").SubjectResult)
	}
}

// Hale's baselines never gate another subject, nor get overwritten by it;
// both are decided before anything runs.
func TestBaselinesOfAnotherSubject(t *testing.T) {
	o := fakeOptions(t, "c", "c", "count")
	seed, err := os.ReadFile("../judge/testdata/seed-baselines.json")
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Replace(string(seed), `"benches": {`, `"benches": {"count": {"kind": "micro", "elapsed_ns": 1, "maxrss_kb": 1},`, 1)
	os.WriteFile(o.Baselines, []byte(doc), 0o644)
	eng := &fakeEngine{elapsed: map[string]int64{"c": 1000}, check: map[string]string{"c": "n:1"}}
	res, err := runFake(t, context.Background(), fakeEnv(fakeImages{}, eng, 2), o)
	if err != nil {
		t.Fatalf("a c run judged against hale's baselines: %v", err)
	}
	if b := bench(res.Report, "count"); b.Status != outcome.NoBaseline || len(res.Report.Warnings) == 0 {
		t.Fatalf("status %q warnings %v", b.Status, res.Report.Warnings)
	}
	o.UpdateBaselines = true
	if _, err := harness.Prepare(o); err == nil || !strings.Contains(err.Error(), "hale's medians") {
		t.Fatalf("err = %v", err)
	}
	if got, _ := os.ReadFile(o.Baselines); string(got) != doc {
		t.Fatal("hale's baselines were changed by a c run")
	}
}

// Every bad input is reported as itself, before any engine is needed.
func TestPrepareRejectsBadInput(t *testing.T) {
	corrupt := filepath.Join(t.TempDir(), "baselines.json")
	os.WriteFile(corrupt, []byte("{\n  \"benches\": {\n    \"x\": nope\n}}\n"), 0o644)
	cases := []struct {
		name string
		edit func(o *harness.Options)
		want string
	}{
		{"iters", func(o *harness.Options) { o.Iters = 0 }, "--iters=0"},
		{"bench", func(o *harness.Options) { o.Bench = "nosuch" }, `no bench named "nosuch"`},
		{"subject", func(o *harness.Options) { o.Subject = "cobol" }, "--subject=cobol"},
		{"lang", func(o *harness.Options) { o.Langs = "c,cobol" }, "cobol"},
		{"suite", func(o *harness.Options) { o.Suite = t.TempDir() }, "no benches/ folder"},
		{"baselines", func(o *harness.Options) { o.Baselines = corrupt }, "at line 3"},
		{"baselines file named", func(o *harness.Options) { o.Baselines = corrupt }, corrupt},
		{"timeout", func(o *harness.Options) { o.Timeout = 0 }, "--timeout"},
		// A gate that could never fire, or a file that would gate nothing.
		{"alpha 0", func(o *harness.Options) { o.Alpha = 0 }, "--alpha=0: want a significance level above 0 and below 0.5"},
		{"alpha negative", func(o *harness.Options) { o.Alpha = -0.1 }, "--alpha=-0.1"},
		{"alpha 0.5", func(o *harness.Options) { o.Alpha = 0.5 }, "--alpha=0.5"},
		{"alpha NaN", func(o *harness.Options) { o.Alpha = math.NaN() }, "--alpha=NaN"},
		{"baselines missing", func(o *harness.Options) { o.Baselines = "/nonexistent/b.json" }, "--baselines=/nonexistent/b.json: no such file"},
		{"baselines update in a missing folder", func(o *harness.Options) { o.Baselines, o.UpdateBaselines = "/nonexistent/b.json", true }, "its folder /nonexistent does not exist"},
		{"warmup", func(o *harness.Options) { o.Warmup = -1 }, "--warmup=-1"},
		{"confirm", func(o *harness.Options) { o.Confirm = -1 }, "--confirm=-1"},
		{"runs", func(o *harness.Options) { o.Runs = 51; o.UpdateBaselines = true }, "--runs=51"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o := fakeOptions(t, "c", "c", "")
			c.edit(&o)
			_, err := harness.Prepare(o)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one containing %q", err, c.want)
			}
		})
	}
}

// --update-baselines may name a file that does not exist yet (in a folder
// that does): the run records it.
func TestPrepareUpdateBaselinesNewFile(t *testing.T) {
	o := fakeOptions(t, "c", "c", "")
	o.Baselines, o.UpdateBaselines = filepath.Join(t.TempDir(), "new.json"), true
	if _, err := harness.Prepare(o); err != nil {
		t.Fatal(err)
	}
}

// --baselines left empty is the suite's baselines.json.
func TestPrepareDefaultsBaselines(t *testing.T) {
	o := fakeOptions(t, "c", "c", "")
	o.Baselines = ""
	p, err := harness.Prepare(o)
	if err != nil {
		t.Fatal(err)
	}
	if p.Baselines != filepath.Join(o.Suite, "baselines.json") {
		t.Fatalf("baselines %q", p.Baselines)
	}
}
