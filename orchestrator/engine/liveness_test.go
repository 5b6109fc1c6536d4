package engine

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// noStat is /proc mounted with hidepid=2: no other process's stat reads.
func noStat(int) string { return "" }

// A live process whose /proc/PID/stat cannot be read is alive: signal 0
// answers EPERM for another user's process, and that is not "gone". This
// runs the check as an unprivileged user (nobody) against this test's own
// root process, so the kernel's EPERM is real; a process that has exited
// is gone.
func TestLiveStartWithoutProc(t *testing.T) {
	if pid := os.Getenv("HALEBENCH_TEST_LIVESTART_PID"); pid != "" {
		n, _ := strconv.Atoi(pid)
		_, alive := liveStartWith(n, noStat)
		fmt.Printf("uid=%d alive=%v\n", os.Geteuid(), alive)
		return
	}
	if os.Geteuid() != 0 {
		// Not root: pid 1 is another user's, signal 0 says EPERM.
		if _, alive := liveStartWith(1, noStat); !alive {
			t.Fatal("pid 1, whose stat is hidden and whose signal 0 says EPERM, judged gone")
		}
	} else {
		out := asNobody(t, os.Getpid())
		if !strings.Contains(out, "uid=65534 alive=true") {
			t.Fatalf("as nobody, this (root) process judged: %q", out)
		}
	}
	if st, alive := liveStartWith(os.Getpid(), startTime); !alive || st != SelfIdentity().Start {
		t.Errorf("this process: start %q alive %v", st, alive)
	}
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	if _, alive := liveStartWith(cmd.Process.Pid, noStat); alive {
		t.Errorf("an exited process (pid %d) judged alive", cmd.Process.Pid)
	}
}

// asNobody runs this test binary's TestLiveStartWithoutProc as uid 65534
// against pid and returns what it printed.
func asNobody(t *testing.T, pid int) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "halebench-livestart-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "engine.test")
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^TestLiveStartWithoutProc$")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HALEBENCH_TEST_LIVESTART_PID="+strconv.Itoa(pid))
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("running as nobody: %v\n%s", err, out)
	}
	return string(out)
}
