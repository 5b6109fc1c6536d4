package session

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
)

// plantLock makes the lock container as another process would: owned by
// pid (with its start time), so that this test process is not its owner.
func plantLock(t *testing.T, eng engine.Driver, pid int, start string) {
	t.Helper()
	ctx := context.Background()
	if err := lockImageOn(ctx, eng); err != nil {
		t.Fatal(err)
	}
	me := engine.SelfIdentity()
	id := engine.Identity{Boot: me.Boot, PIDNS: me.PIDNS, PID: pid, Start: start}
	_, err := eng.Create(ctx, engine.Spec{Image: lockImage, Name: LockName, RunID: lockRun, Cmd: []string{"halebench-lock"},
		Labels: map[string]string{engine.LabelOwnerID: id.String(), engine.LabelOwner: "planted:" + strconv.Itoa(pid), LabelLockVerb: "planted"}})
	if err != nil {
		t.Fatalf("planting the lock (is another halebench holding this engine?): %v", err)
	}
	t.Cleanup(func() { removeLock(eng) })
}

// removeLock removes a planted lock (only a planted one: its owner label).
func removeLock(eng engine.Driver) {
	l, _ := eng.ContainerLabels(context.Background(), LockName)
	if strings.HasPrefix(l[engine.LabelOwner], "planted:") {
		exec.Command("docker", "rm", "-f", LockName).Run()
	}
}

// startOf is field 22 of /proc/PID/stat.
func startOf(t *testing.T, pid int) string {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	return strings.Fields(s[strings.LastIndexByte(s, ')')+1:])[19]
}

// A lock held by a live process is waited for, its holder named, and given
// up after the wait.
func TestLockWaitNamesHolderAndEnds(t *testing.T) {
	eng := enginetest.Connect(t)
	plantLock(t, eng, 1, startOf(t, 1)) // pid 1 outlives the test
	var log strings.Builder
	start := time.Now()
	_, err := lock(context.Background(), eng, "test", &log, 2*time.Second)
	if err == nil {
		t.Fatal("a held lock was taken")
	}
	if !strings.Contains(err.Error(), "halebench planted of planted:1") || !strings.Contains(log.String(), "waiting for the engine: halebench planted of planted:1") {
		t.Fatalf("the holder is not named: %v\n%s", err, log.String())
	}
	if d := time.Since(start); d > time.Minute {
		t.Fatalf("the wait did not end: %s", d)
	}
}

// The lock of a process that is gone (killed with SIGKILL) is taken over.
func TestLockTakenFromDeadHolder(t *testing.T) {
	eng := enginetest.Connect(t)
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid, start := cmd.Process.Pid, startOf(t, cmd.Process.Pid)
	cmd.Process.Kill()
	cmd.Wait()
	plantLock(t, eng, pid, start)
	var log strings.Builder
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	release, err := lock(ctx, eng, "test", &log, 30*time.Second)
	if err != nil {
		t.Fatalf("the dead holder's lock was not taken: %v\n%s", err, log.String())
	}
	defer release()
	l, err := eng.ContainerLabels(ctx, LockName)
	if err != nil || l[engine.LabelOwnerID] != engine.SelfIdentity().String() {
		t.Fatalf("the lock is not this process's: %v %v", l, err)
	}
}

// The process that holds the lock takes it again at once (replay runs the
// suite inside its own hold); only the outer release frees it.
func TestLockReentrant(t *testing.T) {
	eng := enginetest.Connect(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var log strings.Builder
	t0 := time.Now()
	outer, err := lock(ctx, eng, "test", &log, 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(t0)
	inner, err := lock(ctx, eng, "test", &log, time.Second)
	if err != nil {
		outer()
		t.Fatalf("the holder could not take its own lock again: %v", err)
	}
	inner()
	if _, err := eng.ContainerLabels(ctx, LockName); err != nil {
		outer()
		t.Fatalf("the inner release freed the lock: %v", err)
	}
	t1 := time.Now()
	outer()
	t.Logf("taking the engine's lock took %s, releasing it %s", took.Round(time.Millisecond), time.Since(t1).Round(time.Millisecond))
	if _, err := eng.ContainerLabels(ctx, LockName); !engine.IsNotFound(err) {
		t.Fatalf("the outer release left the lock: %v", err)
	}
}
