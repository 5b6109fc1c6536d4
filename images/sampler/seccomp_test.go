//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// The filter installs, and denies what it says, in a child process of the
// test (the filter cannot be removed once set).
func TestFilterDenies(t *testing.T) {
	if os.Getenv("HALEBENCH_FILTER_CHILD") == "1" {
		runtime.LockOSThread()
		_, _, e := syscall.AllThreadsSyscall(syscall.SYS_PRCTL, 38, 1, 0)
		if e == syscall.ENOTSUP {
			// A test binary built with cgo rules out all-thread calls;
			// the sampler itself is built without cgo. This thread only.
			_, _, e = syscall.RawSyscall(syscall.SYS_PRCTL, 38, 1, 0)
		}
		if e != 0 {
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
		if _, err := syscall.Socket(40 /* AF_VSOCK */, syscall.SOCK_STREAM, 0); err != syscall.EAFNOSUPPORT {
			t.Fatalf("socket(AF_VSOCK) = %v, want EAFNOSUPPORT", err)
		}
		if fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0); err != nil {
			t.Fatalf("socket(AF_INET) = %v, want a socket", err)
		} else {
			syscall.Close(fd)
		}
		if _, _, e := syscall.RawSyscall(syscall.SYS_PERSONALITY, 0x0008 /* PER_LINUX32 */, 0, 0); e != syscall.EPERM {
			t.Fatalf("personality(PER_LINUX32) = %v, want EPERM", e)
		}
		if _, _, e := syscall.RawSyscall(syscall.SYS_PERSONALITY, 0xffffffff, 0, 0); e != 0 {
			t.Fatalf("personality(0xffffffff), the query, = %v", e)
		}
		// The count lane's exception is that one value, not a flag among others.
		if _, _, e := syscall.RawSyscall(syscall.SYS_PERSONALITY, 0x0040000|0x0400000 /* | READ_IMPLIES_EXEC */, 0, 0); e != syscall.EPERM {
			t.Fatalf("personality(ADDR_NO_RANDOMIZE|READ_IMPLIES_EXEC) = %v, want EPERM", e)
		}
		if _, _, e := syscall.RawSyscall(syscall.SYS_PERSONALITY, 0x0040000, 0, 0); e != 0 {
			t.Fatalf("personality(ADDR_NO_RANDOMIZE) = %v, want allowed", e)
		}
		if _, _, e := syscall.RawSyscall(syscall.SYS_PERSONALITY, 0, 0, 0); e != 0 {
			t.Fatalf("personality(0) = %v, want allowed", e)
		}
		// An ordinary fork and exec still work.
		if out, err := exec.Command("/bin/sh", "-c", "echo fine").Output(); err != nil || strings.TrimSpace(string(out)) != "fine" {
			t.Fatalf("fork+exec under the filter: %q %v", out, err)
		}
		return
	}
	if filter() == nil {
		skipUnlessCI(t, "no syscall table for "+runtime.GOARCH+": the sampler refuses to run benches here")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestFilterDenies$", "-test.v")
	cmd.Env = append(os.Environ(), "HALEBENCH_FILTER_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
}

// Every number in the tables is the kernel's for that name, as
// golang.org/x/sys/unix lists them for amd64 and arm64.
func TestSyscallTablesMatchTheKernel(t *testing.T) {
	dir, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "golang.org/x/sys").Output()
	if err != nil {
		skipUnlessCI(t, fmt.Sprintf("needs the go command and the golang.org/x/sys module to read the reference tables: %v", err))
	}
	for _, arch := range []string{"amd64", "arm64"} {
		ref := map[string]string{}
		b, err := os.ReadFile(strings.TrimSpace(string(dir)) + "/unix/zsysnum_linux_" + arch + ".go")
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			f := strings.Fields(line)
			if len(f) >= 3 && strings.HasPrefix(f[0], "SYS_") && f[1] == "=" {
				ref[f[0]] = f[2]
			}
		}
		tab := tableFor(arch)
		entries := append(tab.deny, sysEntry{"clone", tab.clone}, sysEntry{"clone3", tab.clone3}, sysEntry{"seccomp", uint32(tab.seccompNr)},
			sysEntry{"socket", tab.socket}, sysEntry{"socketpair", tab.socketpair}, sysEntry{"personality", tab.personality})
		for _, e := range entries {
			want, ok := ref["SYS_"+strings.ToUpper(e.name)]
			if !ok {
				t.Errorf("%s: %s is not in the reference table", arch, e.name)
				continue
			}
			if want != strconv.Itoa(int(e.nr)) {
				t.Errorf("%s: %s is %d here, %s in the kernel's table", arch, e.name, e.nr, want)
			}
		}
	}
}

// skipUnlessCI skips for a stated reason, and fails instead under CI=true,
// where every test must run.
func skipUnlessCI(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true: %s", why)
	}
	t.Skip(why)
}
