//go:build linux

package main

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

// The filter installs, and denies what it says, in a child process of the
// test (the filter cannot be removed once set).
func TestFilterDenies(t *testing.T) {
	if os.Getenv("HALEBENCH_FILTER_CHILD") == "1" {
		if _, _, e := syscall.AllThreadsSyscall(syscall.SYS_PRCTL, 38, 1, 0); e != 0 {
			t.Fatalf("no_new_privs: %v", e)
		}
		if err := installFilter(); err != nil {
			t.Fatalf("installFilter: %v", err)
		}
		if err := syscall.Unshare(syscall.CLONE_NEWUSER); err != syscall.EPERM {
			t.Fatalf("unshare(CLONE_NEWUSER) = %v, want EPERM", err)
		}
		if err := syscall.Mount("none", "/", "", syscall.MS_REMOUNT, ""); err != syscall.EPERM {
			t.Fatalf("mount = %v, want EPERM", err)
		}
		if _, _, e := syscall.RawSyscall(435, 0, 0, 0); e != syscall.ENOSYS {
			t.Fatalf("clone3 = %v, want ENOSYS", e)
		}
		// An ordinary fork and exec still work.
		if out, err := exec.Command("/bin/sh", "-c", "echo fine").Output(); err != nil || strings.TrimSpace(string(out)) != "fine" {
			t.Fatalf("fork+exec under the filter: %q %v", out, err)
		}
		return
	}
	if filter() == nil {
		t.Skip("no syscall table for this architecture")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestFilterDenies$", "-test.v")
	cmd.Env = append(os.Environ(), "HALEBENCH_FILTER_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}
