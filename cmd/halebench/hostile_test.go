package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
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
			"--baselines="+emptyBaselines(t, dir), "--results="+filepath.Join(dir, "results"))
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

// The hostile suite under the default --count=auto and --timeout=5s: the
// bench whose setsid'd child sleeps holding its stdout ends timeout and is
// not counted (its timed samples failed), the forger's child changes no
// number, the run ends on its own and the count bench is counted. (Its
// wall time is a measured figure, not asserted here: README, "The count
// gate".)
func TestHostileSuiteCountedEndsOnItsOwn(t *testing.T) {
	eng := enginetest.Connect(t)
	suite := hostileSuite(t, "holder", "forger")
	dir := t.TempDir()
	done := make(chan struct{})
	var code int
	var out, errOut string
	start := time.Now()
	go func() {
		defer close(done)
		code, out, errOut = run(t, nil, "run", "--suite="+suite, "--lang=c", "--subject=c", "--timeout=5s", "--iters=2", "--json",
			"--baselines="+emptyBaselines(t, dir), "--results="+filepath.Join(dir, "results"))
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Minute): // a hang, not a time target
		t.Fatal("the run did not end on its own within 10 minutes")
	}
	t.Logf("the hostile suite under --count=auto --timeout=5s took %s", time.Since(start).Round(time.Millisecond))
	if code != 1 { // the subject timed out on a bench
		t.Fatalf("exit %d, want 1\n%s", code, errOut)
	}
	var r struct {
		RunID   string `json:"run_id"`
		Benches []struct {
			Name          string `json:"name"`
			Status        string `json:"status"`
			CountVerdict  string `json:"count_verdict"`
			SubjectResult struct {
				Count *struct {
					Reason string            `json:"reason"`
					Runs   []json.RawMessage `json:"runs"`
				} `json:"count"`
			} `json:"subject_result"`
		} `json:"benches"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("report: %v\n%s", err, out)
	}
	seen := map[string]bool{}
	for _, b := range r.Benches {
		seen[b.Name] = true
		c := b.SubjectResult.Count
		t.Logf("%s: %s, count %s", b.Name, b.Status, b.CountVerdict)
		switch b.Name {
		case "holder":
			if b.Status != "timeout" || b.CountVerdict != "not_counted" || c == nil || len(c.Runs) != 0 ||
				!strings.Contains(c.Reason, "timed samples ended timeout") {
				t.Errorf("holder: %s, count %s %+v", b.Status, b.CountVerdict, c)
			}
		case "count":
			if b.Status != "no_baseline" || b.CountVerdict != "no_baseline" {
				t.Errorf("count after the hostile benches: %s, count %s %+v", b.Status, b.CountVerdict, c)
			}
		}
	}
	if !seen["holder"] || !seen["forger"] || !seen["count"] {
		t.Fatalf("benches %v\n%s", seen, out)
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
		"--baselines="+emptyBaselines(t, dir), "--results="+filepath.Join(dir, "results"))
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
