package harness_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/harness"
	"github.com/hale-lang/halebench/orchestrator/report"
)

func options(t *testing.T, langs, subject, bench string) harness.Options {
	dir := t.TempDir()
	return harness.Options{
		Suite: "testdata/suite", Bench: bench, Langs: langs, Subject: subject,
		Iters: 3, Warmup: 1, Timeout: time.Minute, MemLimit: 1 << 30, OutCap: 1 << 20,
		Baselines: filepath.Join(dir, "baselines.json"), ResultsDir: filepath.Join(dir, "results"),
		Log: testLog{t},
	}
}

type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

func bench(r *report.Report, name string) *report.Bench {
	for _, b := range r.Benches {
		if b.Name == name {
			return b
		}
	}
	return nil
}

// A forged baseline makes the subject regress (exit 1 at the CLI);
// --update-baselines records the real median, and the rerun passes.
func TestGateRegressionThenUpdate(t *testing.T) {
	eng := enginetest.Connect(t)
	ctx := context.Background()
	o := options(t, "c", "c", "count")
	forged := `{"updated_at": "2026-01-01T00:00:00Z", "subject": "c", "benches": {"count": {"kind": "micro", "elapsed_ns": 1, "maxrss_kb": 1, "tolerance": 0.3, "note": "forged"}}}`
	if err := os.WriteFile(o.Baselines, []byte(forged), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := harness.Run(ctx, eng, o)
	if !errors.Is(err, harness.ErrRegression) {
		t.Fatalf("err = %v, want a regression", err)
	}
	b := bench(res.Report, "count")
	if b.Status != "regression" || res.Report.Status != "regression" || b.SubjectResult.Status != "regression" {
		t.Fatalf("bench status %q, report %q", b.Status, res.Report.Status)
	}
	if _, err := os.Stat(res.ReportPath); err != nil {
		t.Fatal("no report written:", err)
	}

	o.UpdateBaselines = true
	res, err = harness.Run(ctx, eng, o)
	if err != nil {
		t.Fatalf("update run: %v", err)
	}
	data, _ := os.ReadFile(o.Baselines)
	if !strings.Contains(string(data), `"note": "forged"`) || strings.Contains(string(data), `"elapsed_ns": 1,`) {
		t.Fatalf("baselines after update:\n%s", data)
	}

	o.UpdateBaselines = false
	res, err = harness.Run(ctx, eng, o)
	if err != nil {
		t.Fatalf("rerun after update: %v", err)
	}
	if b := bench(res.Report, "count"); b.Status != "ok" || *b.BaselineElapsedNs <= 1 {
		t.Fatalf("rerun status %q", b.Status)
	}
	enginetest.NoLeftovers(t, eng, res.Report.RunID)
}

// A sibling that counts one iteration short is caught by its check line.
func TestParityMismatchIsFlagged(t *testing.T) {
	eng := enginetest.Connect(t)
	o := options(t, "c,go,python", "c", "count")
	o.Iters, o.Warmup = 1, 0
	res, err := harness.Run(context.Background(), eng, o)
	if err != nil {
		t.Fatal(err)
	}
	b := bench(res.Report, "count")
	if b.Parity != "mismatch" {
		t.Fatalf("parity %q, want mismatch", b.Parity)
	}
	if g := b.Comparatives["go"]; g.Status != "parity_mismatch" || g.ElapsedNsMedian <= 0 || !strings.Contains(g.Detail, "iters:999999") {
		t.Fatalf("go = %+v", g)
	}
	if p := b.Comparatives["python"]; p.Status != "ok" || p.Check != b.SubjectResult.Check {
		t.Fatalf("python = %+v, subject check %q", p, b.SubjectResult.Check)
	}
	var grid strings.Builder
	report.Grid(&grid, res.Report)
	if !strings.Contains(grid.String(), " !") || !strings.Contains(grid.String(), "parity_mismatch") {
		t.Fatalf("grid does not flag the mismatch:\n%s", grid.String())
	}
}

// Without a hale toolchain the run measures the rest, gates nothing and
// says why; with RequireSubject it refuses.
func TestSubjectUnavailable(t *testing.T) {
	eng := enginetest.Connect(t)
	o := options(t, "c", "hale", "count")
	o.Images.HaleSrc = t.TempDir()
	o.Iters, o.Warmup = 1, 0
	res, err := harness.Run(context.Background(), eng, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Report.SubjectStatus != "unavailable" || len(res.Report.Warnings) == 0 {
		t.Fatalf("subject %q warnings %v", res.Report.SubjectStatus, res.Report.Warnings)
	}
	if c := bench(res.Report, "count").Comparatives["c"]; c.Status != "ok" || c.RatioVsSubject != nil {
		t.Fatalf("c = %+v", c)
	}
	o.RequireSubject = true
	_, err = harness.Run(context.Background(), eng, o)
	var ue *harness.UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "require-subject") {
		t.Fatalf("err = %v, want a usage error naming --require-subject", err)
	}
}

// Cancelling mid-run removes the containers and writes a partial report.
func TestInterruptWritesPartialReport(t *testing.T) {
	eng := enginetest.Connect(t)
	o := options(t, "c", "c", "spin")
	o.Iters = 200
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		// Cancel once the bench's container is running.
		for i := 0; i < 600; i++ {
			ids, _ := eng.Leftovers(context.Background(), "")
			for _, id := range ids {
				if l, _ := eng.ContainerLabels(context.Background(), id); l["org.halebench.role"] == "sampler" {
					time.Sleep(300 * time.Millisecond)
					cancel()
					return
				}
			}
			time.Sleep(100 * time.Millisecond)
		}
		cancel()
	}()
	res, err := harness.Run(ctx, eng, o)
	if !errors.Is(err, harness.ErrInterrupted) {
		t.Fatalf("err = %v, want interrupted", err)
	}
	if res.Report.Status != "interrupted" {
		t.Fatalf("report status %q", res.Report.Status)
	}
	if _, err := os.Stat(res.ReportPath); err != nil {
		t.Fatal("no partial report:", err)
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
	res, err := harness.Run(context.Background(), eng, o)
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
	if _, err := harness.Run(context.Background(), eng, o); err != nil {
		t.Fatal(err)
	}
	o.Bench, o.Images.NoBuild = "count", true
	res, err := harness.Run(context.Background(), eng, o)
	if err != nil {
		t.Fatalf("--no-build after a build: %v", err)
	}
	if b := bench(res.Report, "count"); b.SubjectResult.Status != "ok" || res.Report.BenchImages["c"].Executed != 0 {
		t.Fatalf("count = %+v", b.SubjectResult)
	}
	o.Images.BaseImage = "halebench-test/no-such-base:1"
	if _, err = harness.Run(context.Background(), eng, o); err == nil || !strings.Contains(err.Error(), "no-such-base") {
		t.Fatalf("err = %v", err)
	}
}

// A crashing bench is run_failed with its signal and the end of its stderr;
// the run goes on and exits 0 (nothing regressed).
func TestCrashIsReportedWithStderr(t *testing.T) {
	eng := enginetest.Connect(t)
	o := options(t, "c", "c", "crash")
	res, err := harness.Run(context.Background(), eng, o)
	if err != nil {
		t.Fatal(err)
	}
	s := bench(res.Report, "crash").SubjectResult
	if s.Status != "run_failed" || !strings.Contains(s.Detail, "signal") || !strings.Contains(s.Detail, "the table is inconsistent") {
		t.Fatalf("crash = %q %q", s.Status, s.Detail)
	}
	if len(s.Samples) == 0 || s.Samples[len(s.Samples)-1].Signal == "" {
		t.Fatalf("the failing sample is not in the report: %+v", s.Samples)
	}
}

// Hale's baselines never gate another subject, nor get overwritten by it.
func TestBaselinesOfAnotherSubject(t *testing.T) {
	eng := enginetest.Connect(t)
	o := options(t, "c", "c", "count")
	o.Iters, o.Warmup = 1, 0
	seed, err := os.ReadFile("../baseline/testdata/seed-baselines.json")
	if err != nil {
		t.Fatal(err)
	}
	// The seed's file is Hale's; give it a "count" entry that C would fail.
	doc := strings.Replace(string(seed), `"benches": {`, `"benches": {"count": {"kind": "micro", "elapsed_ns": 1, "maxrss_kb": 1},`, 1)
	os.WriteFile(o.Baselines, []byte(doc), 0o644)
	res, err := harness.Run(context.Background(), eng, o)
	if err != nil {
		t.Fatalf("a c run judged against hale's baselines: %v", err)
	}
	if b := bench(res.Report, "count"); b.Status != "no_baseline" || len(res.Report.Warnings) == 0 {
		t.Fatalf("status %q warnings %v", b.Status, res.Report.Warnings)
	}
	o.UpdateBaselines = true
	_, err = harness.Run(context.Background(), eng, o)
	var ue *harness.UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "hale's medians") {
		t.Fatalf("err = %v", err)
	}
	if got, _ := os.ReadFile(o.Baselines); string(got) != doc {
		t.Fatal("hale's baselines were changed by a c run")
	}
}
