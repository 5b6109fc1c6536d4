package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
)

// hostileSuite makes a scratch suite holding the named hostile benches of
// orchestrator/runner/testdata/hostile and the count test bench, in that
// order in the grid.
func hostileSuite(t *testing.T, hostile ...string) string {
	t.Helper()
	dir := t.TempDir()
	micro := filepath.Join(dir, "benches", "micro")
	os.MkdirAll(micro, 0o755)
	copyFile := func(from, to string) {
		b, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(to, b, 0o644)
	}
	for _, h := range hostile {
		copyFile(filepath.Join("../../orchestrator/runner/testdata/hostile", h+".c"), filepath.Join(micro, h+".c"))
	}
	copyFile(filepath.Join(testSuite, "benches/micro/count.c"), filepath.Join(micro, "count.c"))
	cat, _ := json.Marshal(map[string]any{"categories": []map[string]any{{"name": "hostile", "title": "Hostile", "benches": append(hostile, "count")}}})
	os.WriteFile(filepath.Join(dir, "benches", "catalogue.json"), cat, 0o644)
	return dir
}

type hostileRunReport struct {
	RunID   string `json:"run_id"`
	Status  string `json:"status"`
	Benches []struct {
		Name    string  `json:"name"`
		Status  string  `json:"status"`
		Samples []int64 `json:"elapsed_ns_samples"`
	} `json:"benches"`
}

// The example: a bench whose setsid'd child forges result lines on
// /proc/1/fd/1 with guessed ids runs first, --iters=2. The run ends on its
// own, and the bench after it keeps its own numbers.
func TestForgingBenchRunEndsOnItsOwn(t *testing.T) {
	eng := enginetest.Connect(t)
	suite := hostileSuite(t, "forger")
	dir := t.TempDir()
	done := make(chan struct{})
	var code int
	var out, errOut string
	go func() {
		defer close(done)
		code, out, errOut = run(t, nil, "run", "--suite="+suite, "--lang=c", "--subject=c", "--iters=2", "--json",
			"--baselines="+filepath.Join(dir, "b.json"), "--results="+filepath.Join(dir, "results"))
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Minute):
		t.Fatal("the run did not end on its own within 10 minutes")
	}
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	var r hostileRunReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("report: %v\n%s", err, out)
	}
	seen := false
	for _, b := range r.Benches {
		if b.Name != "count" {
			continue
		}
		if (b.Status != "ok" && b.Status != "no_baseline") || len(b.Samples) != 2 {
			t.Fatalf("count after the forger: %+v", b)
		}
		for _, ns := range b.Samples {
			if ns == 42 {
				t.Fatalf("count took a forged sample: %+v", b)
			}
		}
		seen = true
	}
	if !seen {
		t.Fatalf("no count bench in the report\n%s", out)
	}
	enginetest.NoLeftovers(t, eng, r.RunID)
}

// SIGTERM while a bench's setsid'd child holds its stdout, with a long
// --timeout: exit 130 within 20 s, a partial report, no container left.
func TestSIGTERMWithHostileBench(t *testing.T) {
	eng := enginetest.Connect(t)
	suite := hostileSuite(t, "holder")
	dir := t.TempDir()
	cmd, errb := startArgs(t, "run", "--suite="+suite, "--bench=holder", "--lang=c", "--subject=c", "--iters=3", "--timeout=10m",
		"--baselines="+filepath.Join(dir, "b.json"), "--results="+filepath.Join(dir, "results"))
	runID := waitContainer(t, eng, cmd.Process.Pid)
	time.Sleep(3 * time.Second) // the holder's sample is under way
	sent := time.Now()
	cmd.Process.Signal(syscall.SIGTERM)
	if code := waitExit(t, cmd, 20*time.Second, errb); code != 130 {
		t.Fatalf("exit %d after %s, want 130\n%s", code, time.Since(sent), errb.String())
	}
	t.Logf("exited 130 %s after SIGTERM", time.Since(sent).Round(time.Millisecond))
	reports, _ := filepath.Glob(filepath.Join(dir, "results", "run-*.json"))
	if len(reports) != 1 {
		t.Fatalf("reports %v\n%s", reports, errb.String())
	}
	enginetest.NoLeftovers(t, eng, runID)
}
