//go:build linux

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// emptyDir removes what a bench left, nested directories and links
// included, keeps what is the sampler's, and never follows a link out.
func TestEmptyDir(t *testing.T) {
	room, outside := t.TempDir(), t.TempDir()
	precious := filepath.Join(outside, "precious")
	if err := os.WriteFile(precious, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(room, ".local/lib/python3.13/site-packages"), 0o755))
	must(os.WriteFile(filepath.Join(room, ".local/lib/python3.13/site-packages/x.pth"), []byte("import os"), 0o644))
	must(os.Symlink(outside, filepath.Join(room, "link")))
	must(os.Mkdir(filepath.Join(room, "locked"), 0o000))
	must(os.Mkdir(filepath.Join(room, "keep"), 0o755))
	if err := emptyDir(room, map[string]bool{"keep": true}); err != nil {
		t.Fatal(err)
	}
	left, _ := dirNames(room)
	if !reflect.DeepEqual(left, []string{"keep"}) {
		t.Fatalf("left %v, want [keep]", left)
	}
	if _, err := os.Stat(precious); err != nil {
		t.Fatalf("a link was followed out of the room: %v", err)
	}
	if err := emptyDir(filepath.Join(room, "missing"), nil); err != nil {
		t.Fatalf("a directory the image lacks: %v", err)
	}
}

func TestSysvIDs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shm")
	table := "       key      shmid perms                  size  cpid  lpid nattch   uid   gid  cuid  cgid\n" +
		"1212304470          3   666              16777216    40    40      0 65534 65534 65534 65534\n" +
		"         0         12   600                  4096     7     7      1     0     0     0     0\n"
	if err := os.WriteFile(path, []byte(table), 0o644); err != nil {
		t.Fatal(err)
	}
	ids, err := sysvIDs(path)
	if err != nil || !reflect.DeepEqual(ids, []int{3, 12}) {
		t.Fatalf("ids %v %v, want [3 12]", ids, err)
	}
	if ids, err := sysvIDs(filepath.Join(t.TempDir(), "none")); err != nil || ids != nil {
		t.Fatalf("a kernel without System V IPC: %v %v", ids, err)
	}
}

// BenchmarkRoomCheckEmpty is the part of cleanRoom a sample pays when the
// bench left nothing: listing five empty directories and reading the three
// System V tables (read only here: nothing of the host is removed).
//
// go test -run=^$ -bench=RoomCheckEmpty ./images/sampler
func BenchmarkRoomCheckEmpty(b *testing.B) {
	var dirs []string
	for i := 0; i < 5; i++ {
		dirs = append(dirs, b.TempDir())
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, d := range dirs {
			if err := emptyDir(d, nil); err != nil {
				b.Fatal(err)
			}
		}
		for _, k := range sysvKinds {
			if _, err := sysvIDs(k.list); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// inPrivateNamespace runs fn on a thread of its own in new namespaces of
// the kinds flags names (CLONE_NEWNS, CLONE_NEWIPC), so that what fn mounts
// or creates is not the host's. The thread is not given back to the
// runtime: it ends with fn.
func inPrivateNamespace(t *testing.T, flags int, fn func()) {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		if err := syscall.Unshare(flags); err != nil {
			done <- err
			return
		}
		defer func() { done <- nil }()
		fn()
	}()
	if err := <-done; err != nil {
		skipUnlessCI(t, fmt.Sprintf("needs CAP_SYS_ADMIN for private namespaces (unshare: %v)", err))
	}
}

// A room directory on a read-only mount that a clean found empty is sealed:
// not listed again. One on a writable mount is emptied every time, and one
// on a read-only mount that holds something is an error every time, never
// sealed.
func TestRoomSealsOnlyEmptyReadOnlyDirs(t *testing.T) {
	rw, ro, roFull := t.TempDir(), t.TempDir(), t.TempDir()
	inPrivateNamespace(t, syscall.CLONE_NEWNS, func() {
		if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
			t.Error(err)
			return
		}
		if err := syscall.Mount("tmpfs", ro, "tmpfs", syscall.MS_RDONLY, ""); err != nil {
			t.Error(err)
			return
		}
		if err := os.WriteFile(filepath.Join(roFull, "left"), nil, 0o644); err != nil {
			t.Error(err)
			return
		}
		if err := syscall.Mount(roFull, roFull, "", syscall.MS_BIND, ""); err != nil {
			t.Error(err)
			return
		}
		if err := syscall.Mount("", roFull, "", syscall.MS_BIND|syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
			t.Error(err)
			return
		}
		var r room
		dirs := map[string]map[string]bool{rw: nil, ro: nil, roFull: nil}
		for i := 0; i < 2; i++ {
			if err := os.WriteFile(filepath.Join(rw, "x"), nil, 0o644); err != nil {
				t.Error(err)
				return
			}
			err := r.emptyDirs(dirs, true)
			if err == nil || !strings.Contains(err.Error(), roFull) {
				t.Errorf("clean %d: %v, want an error naming %s", i, err, roFull)
			}
			if left, _ := dirNames(rw); len(left) != 0 {
				t.Errorf("clean %d left %v in the writable directory", i, left)
			}
			if !reflect.DeepEqual(r.sealed, map[string]bool{ro: true}) {
				t.Errorf("clean %d sealed %v, want only %s", i, r.sealed, ro)
			}
		}
	})
}

// removeSysVIPC finds, through the kernel's counts, that a fresh IPC
// namespace holds nothing, and removes a segment, a semaphore set and a
// message queue left in it.
func TestRemoveSysVIPC(t *testing.T) {
	inPrivateNamespace(t, syscall.CLONE_NEWIPC, func() {
		counts := func() []int32 {
			var buf [16]int32
			var n []int32
			for _, k := range sysvKinds {
				c, e := k.inUse(&buf)
				if e != 0 {
					t.Errorf("%s: counting: %v", k.list, e)
				}
				n = append(n, c)
			}
			return n
		}
		if n := counts(); !reflect.DeepEqual(n, []int32{0, 0, 0}) {
			t.Errorf("a fresh namespace holds %v", n)
		}
		const ipcPrivate, ipcCreat = 0, 0o1000
		for _, nr := range []uintptr{syscall.SYS_SHMGET, syscall.SYS_SEMGET, syscall.SYS_MSGGET} {
			a2, a3 := uintptr(ipcCreat|0o600), uintptr(0)
			if nr != syscall.SYS_MSGGET {
				a2, a3 = 4096, ipcCreat|0o600 // shmget(key, size, flags); semget(key, nsems, flags)
				if nr == syscall.SYS_SEMGET {
					a2 = 1
				}
			}
			if _, _, e := syscall.Syscall(nr, ipcPrivate, a2, a3); e != 0 {
				t.Errorf("creating an object (syscall %d): %v", nr, e)
			}
		}
		if n := counts(); !reflect.DeepEqual(n, []int32{1, 1, 1}) {
			t.Errorf("after making one of each: %v", n)
		}
		if err := removeSysVIPC(); err != nil {
			t.Error(err)
		}
		if n := counts(); !reflect.DeepEqual(n, []int32{0, 0, 0}) {
			t.Errorf("after removeSysVIPC: %v", n)
		}
	})
}

// A guest in another container's IPC namespace (wire.RoomGuest) empties
// its own room directories and leaves the shared ones to their owner; the
// owner empties both.
func TestGuestLeavesTheSharedRoom(t *testing.T) {
	own, shared := t.TempDir(), t.TempDir()
	saved := ipcDirs
	ipcDirs = map[string]bool{shared: true}
	defer func() { ipcDirs = saved }()
	dirs := map[string]map[string]bool{own: nil, shared: nil}
	for _, ipc := range []bool{false, true} {
		for _, d := range []string{own, shared} {
			if err := os.WriteFile(filepath.Join(d, "left"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		var r room
		if err := r.emptyDirs(dirs, ipc); err != nil {
			t.Fatal(err)
		}
		ownLeft, _ := dirNames(own)
		sharedLeft, _ := dirNames(shared)
		if len(ownLeft) != 0 || (len(sharedLeft) == 0) != ipc {
			t.Errorf("ipc %v: left %v in its own directory, %v in the shared one", ipc, ownLeft, sharedLeft)
		}
	}
}

// An image whose /var/tmp (or /var) is a link: the clean, root, does not
// follow it and empty what it names (the sampler's /run, the programs in
// /bench); it says so, which spends the container.
func TestEmptyDirRefusesALinkedRoom(t *testing.T) {
	base, target := t.TempDir(), t.TempDir()
	precious := filepath.Join(target, "halebench-cg")
	if err := os.WriteFile(precious, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Symlink(target, filepath.Join(base, "tmp"))
	os.Mkdir(filepath.Join(base, "real"), 0o755)
	os.Symlink(filepath.Join(base, "real"), filepath.Join(base, "var"))
	os.Symlink(target, filepath.Join(base, "real", "tmp"))
	for _, dir := range []string{filepath.Join(base, "tmp"), filepath.Join(base, "var", "tmp")} {
		err := emptyDir(dir, nil)
		if err == nil || !strings.Contains(err.Error(), "is a link") {
			t.Errorf("%s: err = %v, want a refusal", dir, err)
		}
		if _, serr := os.Stat(precious); serr != nil {
			t.Fatalf("%s: the clean followed a link and removed what it names: %v", dir, serr)
		}
	}
}
