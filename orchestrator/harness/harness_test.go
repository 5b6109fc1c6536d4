package harness_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/harness"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/report"
)

func options(t *testing.T, langs, subject, bench string) harness.Options {
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
		Log: testLog{t},
	}
}

type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// runOn prepares and makes a run on the real engine.
func runOn(t *testing.T, ctx context.Context, eng engine.Driver, o harness.Options) (*harness.Result, error) {
	t.Helper()
	p, err := harness.Prepare(o)
	if err != nil {
		return nil, err
	}
	return harness.OnEngine(ctx, eng, p)
}

func bench(r *report.Report, name string) *report.Bench {
	for _, b := range r.Benches {
		if b.Name == name {
			return b
		}
	}
	return nil
}

// watchLog passes the run's log to the test's and closes seen the first
// time a line holds want.
type watchLog struct {
	testLog
	want string
	once sync.Once
	seen chan struct{}
}

func (w *watchLog) Write(p []byte) (int, error) {
	if strings.Contains(string(p), w.want) {
		w.once.Do(func() { close(w.seen) })
	}
	return w.testLog.Write(p)
}

// Cancelling mid-run removes the containers and writes a partial report.
// The cancel comes once this run's own second sample starts (its first was
// taken, so its sampler container is up), not on any sampler of the engine.
func TestInterruptWritesPartialReport(t *testing.T) {
	eng := enginetest.Connect(t)
	o := options(t, "c", "c", "spin")
	o.Iters = 200
	log := &watchLog{testLog: testLog{t}, want: "sample 2 of 200", seen: make(chan struct{})}
	o.Log, o.Live = log, true
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		select {
		case <-log.seen:
		case <-time.After(10 * time.Minute):
		}
		cancel()
	}()
	res, err := runOn(t, ctx, eng, o)
	if !errors.Is(err, harness.ErrInterrupted) {
		t.Fatalf("err = %v, want interrupted", err)
	}
	if res.Report.Status != "interrupted" {
		t.Fatalf("report status %q", res.Report.Status)
	}
	select {
	case <-log.seen:
	default:
		t.Fatal("cancelled by the time limit: the run never took its second sample")
	}
	if _, err := os.Stat(res.ReportPath); err != nil {
		t.Fatal("no partial report:", err)
	}
	spin := bench(res.Report, "spin").SubjectResult
	if spin == nil || spin.Status != "interrupted" || len(spin.Samples) == 0 || len(spin.Samples) >= 200 {
		t.Fatalf("spin %+v: want interrupted with the samples taken before", spin)
	}
	enginetest.NoLeftovers(t, eng, res.Report.RunID)
}

// --unprivileged: the run still measures time and rusage, and the report
// says that no per-sample memory peak could be taken.
func TestUnprivileged(t *testing.T) {
	eng := enginetest.Connect(t)
	o := options(t, "c", "c", "count")
	o.Unprivileged = true
	o.Iters, o.Warmup = 2, 0
	res, err := runOn(t, context.Background(), eng, o)
	if err != nil {
		t.Fatal(err)
	}
	r := res.Report
	if r.Host.Privilege.Mode != "unprivileged" || r.Host.MemPeakSource != "unavailable" || r.Host.MemPeakError == "" {
		t.Fatalf("host %+v", r.Host)
	}
	c := bench(r, "count").SubjectResult
	if c.Status != "ok" || c.MemPeakKBMedian != nil || c.MaxRSSKBMedian <= 0 {
		t.Fatalf("count = %+v", c)
	}
	// The report says what the container and the bench got; the bench
	// runs as nobody with nothing even here.
	if cf := r.Host.Confinement; cf == nil || cf.Bench == nil || cf.Container == nil ||
		!strings.HasPrefix(cf.Bench.UID, "65534") || cf.Bench.CapEff != "0000000000000000" || cf.Bench.NoNewPrivs != "1" {
		t.Fatalf("confinement %+v", r.Host.Confinement)
	}
}

// --no-build uses the images a build made for the same sources — also for a
// single --bench, whose run shares the language's full image — and says
// what to do when there are none.
func TestNoBuild(t *testing.T) {
	eng := enginetest.Connect(t)
	o := options(t, "c", "c", "")
	o.Iters, o.Warmup = 1, 0
	// The suite holds a crashing bench: the run fails, having built it all.
	if _, err := runOn(t, context.Background(), eng, o); !errors.Is(err, harness.ErrFailed) {
		t.Fatal(err)
	}
	o.Bench, o.Images.NoBuild = "count", true
	res, err := runOn(t, context.Background(), eng, o)
	if err != nil {
		t.Fatalf("--no-build after a build: %v", err)
	}
	if b := bench(res.Report, "count"); b.SubjectResult.Status != "ok" || res.Report.BenchImages["c"].Executed != 0 {
		t.Fatalf("count = %+v", b.SubjectResult)
	}
	o.Images.BaseImage = "halebench-test/no-such-base:1"
	if _, err = runOn(t, context.Background(), eng, o); err == nil || !strings.Contains(err.Error(), "no-such-base") {
		t.Fatalf("err = %v", err)
	}
}

// A crashing subject is run_failed with its signal and the end of its
// stderr, and fails the run (exit 1 at the CLI).
func TestCrashIsReportedWithStderr(t *testing.T) {
	eng := enginetest.Connect(t)
	o := options(t, "c", "c", "crash")
	res, err := runOn(t, context.Background(), eng, o)
	if !errors.Is(err, harness.ErrFailed) || res.Report.Status != "failed" {
		t.Fatalf("err %v, want the run failed", err)
	}
	s := bench(res.Report, "crash").SubjectResult
	if s.Status != "run_failed" || !strings.Contains(s.Detail, "signal") || !strings.Contains(s.Detail, "the table is inconsistent") {
		t.Fatalf("crash = %q %q", s.Status, s.Detail)
	}
	if len(s.Samples) == 0 || s.Samples[len(s.Samples)-1].Signal == "" {
		t.Fatalf("the failing sample is not in the report: %+v", s.Samples)
	}
}
