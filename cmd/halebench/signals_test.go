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
	"syscall"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
)

const testSuite = "../../orchestrator/harness/testdata/suite"

// start runs the binary on the spin bench with many samples, so that it is
// mid-run when the test acts on it.
func start(t *testing.T, dir string, iters string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	return startArgs(t, "run", "--suite="+testSuite, "--bench=spin", "--lang=c", "--subject=c",
		"--iters="+iters, "--baselines="+filepath.Join(dir, "b.json"), "--results="+filepath.Join(dir, "results"))
}

// startArgs starts the binary with args, its stderr kept.
func startArgs(t *testing.T, args ...string) (*exec.Cmd, *bytes.Buffer) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, &errb
}

// waitContainer waits for the sampler container of a run owned by pid.
func waitContainer(t *testing.T, eng *engine.Engine, pid int) string {
	t.Helper()
	host, _ := os.Hostname()
	owner := host + ":" + itoa(pid)
	for i := 0; i < 600; i++ {
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
			code := exitOf(cmd.Wait())
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
	cmd, _ := start(t, dir, "500")
	runID := waitContainer(t, eng, cmd.Process.Pid)
	cmd.Process.Kill()
	cmd.Wait()
	if ids, _ := eng.Leftovers(context.Background(), runID); len(ids) == 0 {
		t.Fatal("SIGKILL left nothing to clean: the test proves nothing")
	}
	code, _, errOut := run(t, nil, "run", "--suite="+testSuite, "--bench=count", "--lang=c", "--subject=c", "--iters=1",
		"--baselines="+filepath.Join(dir, "b.json"), "--results="+filepath.Join(dir, "results"))
	if code != 0 || !strings.Contains(errOut, "left by a killed halebench run") {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	enginetest.NoLeftovers(t, eng, runID)
}

// Two runs at once: the second waits for the CPUs and says why; both finish
// with their own report and nothing is left.
func TestTwoRunsAtOnce(t *testing.T) {
	eng := enginetest.Connect(t)
	dir := t.TempDir()
	// A must still hold the CPUs when B asks: ~10 s of samples.
	a, errA := start(t, dir, "1000")
	waitContainer(t, eng, a.Process.Pid)
	b, errB := start(t, dir, "5")
	ca, cb := exitOf(a.Wait()), exitOf(b.Wait())
	if ca != 0 || cb != 0 {
		t.Fatalf("exits %d %d\n%s\n%s", ca, cb, errA.String(), errB.String())
	}
	if !strings.Contains(errB.String(), "waiting for the CPUs: another halebench run (pid "+itoa(a.Process.Pid)) {
		t.Fatalf("the second run did not say whom it waited for:\n%s", errB.String())
	}
	reports, _ := filepath.Glob(filepath.Join(dir, "results", "run-*.json"))
	if len(reports) != 2 {
		t.Fatalf("reports %v", reports)
	}
	// Only these two runs' containers: other runs may share the engine.
	for _, p := range []int{a.Process.Pid, b.Process.Pid} {
		if left := ownedBy(eng, p); len(left) > 0 {
			t.Fatalf("run %d left containers %v", p, left)
		}
	}
}

// ownedBy lists the halebench containers that the process pid made.
func ownedBy(eng *engine.Engine, pid int) []string {
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
	cmd := exec.Command(bin, "xproc", "--suite=../..", "--lang=c", "--variant=large", "--iters=200", "--results="+filepath.Join(dir, "results"))
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
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
	for i := 0; i < 600 && !seen; i++ {
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
	if code := exitOf(cmd.Wait()); code != 130 {
		t.Fatalf("exit %d, want 130\n%s", code, errb.String())
	}
	if left := mine(); len(left) > 0 {
		t.Fatalf("containers left: %v", left)
	}
	if reports, _ := filepath.Glob(filepath.Join(dir, "results", "xproc-*.json")); len(reports) != 1 {
		t.Fatalf("reports %v", reports)
	}
}
