package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
)

const testSuite = "../../orchestrator/harness/testdata/suite"

// start runs the binary on the spin bench with many samples, so that it is
// mid-run when the test acts on it.
func start(t *testing.T, dir string, iters string) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	return startArgs(t, "run", "--suite="+testSuite, "--bench=spin", "--lang=c", "--subject=c",
		"--iters="+iters, "--baselines="+emptyBaselines(t, dir), "--results="+filepath.Join(dir, "results"))
}

// startArgs starts the binary with args, its stderr kept (safe to read
// while it runs). The process is killed if the test ends first.
func startArgs(t *testing.T, args ...string) (*exec.Cmd, *syncBuffer) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), notCI)
	errb := &syncBuffer{}
	cmd.Stderr = errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	return cmd, errb
}

// syncBuffer is a bytes.Buffer the test may read while the process writes.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitExit waits at most d for the process and returns its exit code; a
// process still running then is killed and the test fails.
func waitExit(t *testing.T, cmd *exec.Cmd, d time.Duration, errb *syncBuffer) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		return exitOf(err)
	case <-time.After(d):
		cmd.Process.Kill()
		<-done
		t.Fatalf("%v still running after %s: killed\n%s", cmd.Args, d, errb.String())
		return -1
	}
}

// waitFor polls until cond holds, at most d; it says whether it did.
func waitFor(d time.Duration, cond func() bool) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

// coldImages bounds the wait for a run's first container: on an engine
// that holds none of the images yet (CI's), the run first makes the base
// and the toolchains, minutes of work on a busy 2-core host.
const coldImages = 15 * time.Minute

// waitContainer waits for the sampler container of a run owned by pid.
func waitContainer(t *testing.T, eng engine.Driver, pid int) string {
	t.Helper()
	host, _ := os.Hostname()
	owner := host + ":" + itoa(pid)
	for end := time.Now().Add(coldImages); time.Now().Before(end); {
		ids, _ := eng.Leftovers(context.Background(), "")
		for _, id := range ids {
			l, _ := eng.ContainerLabels(context.Background(), id)
			if l[engine.LabelOwner] == owner && l["org.halebench.role"] == "sampler" {
				return l[engine.LabelRun]
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatal("no spin container appeared")
	return ""
}

func itoa(i int) string { return strconv.Itoa(i) }

func exitOf(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// SIGINT and SIGTERM mid-run: exit 130, a partial report, no container left.
func TestSignalMidRun(t *testing.T) {
	eng := enginetest.Connect(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			cmd, errb := start(t, dir, "500")
			runID := waitContainer(t, eng, cmd.Process.Pid)
			cmd.Process.Signal(sig)
			code := waitExit(t, cmd, 30*time.Second, errb)
			if code != 130 {
				t.Fatalf("exit %d, want 130\n%s", code, errb.String())
			}
			reports, _ := filepath.Glob(filepath.Join(dir, "results", "run-*.json"))
			if len(reports) != 1 {
				t.Fatalf("reports %v", reports)
			}
			data, _ := os.ReadFile(reports[0])
			var r struct {
				Status string `json:"status"`
			}
			json.Unmarshal(data, &r)
			if r.Status != "interrupted" {
				t.Fatalf("report status %q", r.Status)
			}
			enginetest.NoLeftovers(t, eng, runID)
		})
	}
}

// SIGKILL leaves the container; the next run finds it by label and removes it.
func TestSIGKILLLeftoversRemovedByNextRun(t *testing.T) {
	eng := enginetest.Connect(t)
	dir := t.TempDir()
	cmd, errb := start(t, dir, "500")
	runID := waitContainer(t, eng, cmd.Process.Pid)
	cmd.Process.Kill()
	waitExit(t, cmd, 10*time.Second, errb)
	if ids, _ := eng.Leftovers(context.Background(), runID); len(ids) == 0 {
		t.Fatal("SIGKILL left nothing to clean: the test proves nothing")
	}
	code, _, errOut := run(t, nil, "run", "--suite="+testSuite, "--bench=count", "--lang=c", "--subject=c", "--iters=1",
		"--baselines="+emptyBaselines(t, dir), "--results="+filepath.Join(dir, "results"))
	if code != 0 || !strings.Contains(errOut, "left by a killed halebench run") {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	enginetest.NoLeftovers(t, eng, runID)
}

// Two runs at once — one sampling, one building — never overlap: the
// second waits for the engine, names the first, and takes the engine only
// after the first released it. Proved from the lock events each process
// stamps (the release is stamped before the lock is removed, the take
// after it is made), not from timing: A samples until it is stopped, and
// it is stopped only once B has said that it waits for A.
func TestTwoRunsNeverOverlap(t *testing.T) {
	eng := enginetest.Connect(t)
	dir := t.TempDir()
	a, errA := start(t, dir, "1000000")
	waitContainer(t, eng, a.Process.Pid)
	b, errB := startArgs(t, "images", "--suite="+testSuite, "--lang=c")
	holder := "halebench run of " + engine.Owner()[:strings.IndexByte(engine.Owner(), ':')+1] + itoa(a.Process.Pid)
	if !waitFor(5*time.Minute, func() bool { return strings.Contains(errB.String(), "waiting for the engine: "+holder) }) {
		t.Fatalf("the building run did not say it waits for %q:\n%s", holder, errB.String())
	}
	a.Process.Signal(syscall.SIGINT)
	if ca := waitExit(t, a, 30*time.Second, errA); ca != 130 {
		t.Fatalf("A: exit %d\n%s", ca, errA.String())
	}
	if cb := waitExit(t, b, 20*time.Minute, errB); cb != 0 {
		t.Fatalf("B: exit %d\n%s", cb, errB.String())
	}
	aTook, aReleased := lockEvents(t, errA.String(), "run", "images: ")
	bTook, bReleased := lockEvents(t, errB.String(), "images", "images: ")
	if !aReleased.Before(bTook) {
		t.Fatalf("B took the engine at %s, before A released it at %s", bTook, aReleased)
	}
	t.Logf("A held the engine %s → %s; B %s → %s", aTook.Format(time.RFC3339Nano), aReleased.Format(time.RFC3339Nano), bTook.Format(time.RFC3339Nano), bReleased.Format(time.RFC3339Nano))
	for _, p := range []int{a.Process.Pid, b.Process.Pid} {
		if left := ownedBy(eng, p); len(left) > 0 {
			t.Fatalf("process %d left containers %v", p, left)
		}
	}
}

// lockEvents reads a verb's stderr: when it took the engine and when it
// released it. The line order of one stream is the order things happened:
// every line starting with work (its building) must lie between the two.
func lockEvents(t *testing.T, stderr, verb, work string) (took, released time.Time) {
	t.Helper()
	stamp := func(line, prefix string) time.Time {
		ts, err := time.Parse(time.RFC3339Nano, strings.TrimPrefix(line, prefix))
		if err != nil {
			t.Fatalf("lock line %q: %v", line, err)
		}
		return ts
	}
	inside := 0
	for _, line := range strings.Split(stderr, "\n") {
		switch {
		case strings.HasPrefix(line, "lock: "+verb+" took the engine at "):
			took = stamp(line, "lock: "+verb+" took the engine at ")
		case strings.HasPrefix(line, "lock: "+verb+" releases the engine at "):
			released = stamp(line, "lock: "+verb+" releases the engine at ")
		case strings.HasPrefix(line, work) && (took.IsZero() || !released.IsZero()):
			t.Fatalf("%s worked outside its hold of the engine: %q\n%s", verb, line, stderr)
		case strings.HasPrefix(line, work):
			inside++
		}
	}
	if took.IsZero() || released.IsZero() || inside == 0 {
		t.Fatalf("%s: no take, work (%q…) and release, in that order:\n%s", verb, work, stderr)
	}
	return took, released
}

// ownedBy lists the halebench containers that the process pid made.
func ownedBy(eng engine.Driver, pid int) []string {
	host, _ := os.Hostname()
	var out []string
	ids, _ := eng.Leftovers(context.Background(), "")
	for _, id := range ids {
		if l, _ := eng.ContainerLabels(context.Background(), id); l[engine.LabelOwner] == host+":"+itoa(pid) {
			out = append(out, id)
		}
	}
	return out
}

// SIGINT during xproc: exit 130, both sides' containers removed.
func TestXprocInterrupted(t *testing.T) {
	eng := enginetest.Connect(t)
	dir := t.TempDir()
	cmd, errb := startArgs(t, "xproc", "--suite=../..", "--lang=c", "--variant=large", "--iters=200", "--results="+filepath.Join(dir, "results"))
	host, _ := os.Hostname()
	owner := host + ":" + itoa(cmd.Process.Pid)
	mine := func() []string {
		var out []string
		ids, _ := eng.Leftovers(context.Background(), "")
		for _, id := range ids {
			if l, _ := eng.ContainerLabels(context.Background(), id); l[engine.LabelOwner] == owner {
				out = append(out, id)
			}
		}
		return out
	}
	seen := false
	for end := time.Now().Add(coldImages); time.Now().Before(end) && !seen; {
		for _, id := range mine() {
			if l, _ := eng.ContainerLabels(context.Background(), id); l["org.halebench.xproc"] != "" {
				seen = true
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !seen {
		t.Fatalf("no xproc container appeared\n%s", errb.String())
	}
	time.Sleep(time.Second)
	cmd.Process.Signal(syscall.SIGINT)
	if code := waitExit(t, cmd, 30*time.Second, errb); code != 130 {
		t.Fatalf("exit %d, want 130\n%s", code, errb.String())
	}
	if left := mine(); len(left) > 0 {
		t.Fatalf("containers left: %v", left)
	}
	if reports, _ := filepath.Glob(filepath.Join(dir, "results", "xproc-*.json")); len(reports) != 1 {
		t.Fatalf("reports %v", reports)
	}
}

// A second signal exits at once, and says plainly whether the partial
// report was written (and if it says so, the file is there). A run that
// winds down before the hard exit is through says its report as usual.
func TestSecondSignalSaysReport(t *testing.T) {
	eng := enginetest.Connect(t)
	dir := t.TempDir()
	cmd, errb := start(t, dir, "1000000")
	waitContainer(t, eng, cmd.Process.Pid)
	cmd.Process.Signal(syscall.SIGINT)
	cmd.Process.Signal(syscall.SIGINT)
	if code := waitExit(t, cmd, 30*time.Second, errb); code != 130 {
		t.Fatalf("exit %d\n%s", code, errb.String())
	}
	out := errb.String()
	reports, _ := filepath.Glob(filepath.Join(dir, "results", "run-*.json"))
	switch {
	case strings.Contains(out, "NO partial report was written"):
		if len(reports) != 0 {
			t.Fatalf("said no report, yet %v\n%s", reports, out)
		}
	case strings.Contains(out, "partial report written: "), strings.Contains(out, "\nreport: "):
		// The hard exit's line, or the run wound down first and said its
		// report as usual: either way the file is the one named.
		if len(reports) != 1 || !strings.Contains(out, reports[0]) {
			t.Fatalf("said a report, found %v\n%s", reports, out)
		}
	default:
		t.Fatalf("the hard exit did not say whether a report was written:\n%s", out)
	}
}
