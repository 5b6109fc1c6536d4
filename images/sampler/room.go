//go:build linux

package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// The room a bench finds: what one sample leaves must not reach the next.
// A bench runs as benchUID with no capability, so the only places it can
// write are the image's world-writable directories and System V IPC; all
// of them are emptied after every sample and checked empty. (A private
// tmpfs per sample would need mount, which the seccomp filter denies the
// sampler once it is installed.)

// roomDirs are the places a bench could write: the container's tmpfs
// /tmp (world-writable), its tmpfs /run (not writable by the bench on the
// engine measured, emptied in case another makes it so), the
// world-writable directories of a Debian image (read-only unless the
// container's root is writable), the engine's /dev/shm and the POSIX
// message queues' /dev/mqueue. Each maps to what of it is the sampler's
// own and stays.
var roomDirs = map[string]map[string]bool{
	"/tmp":        nil,
	"/run":        {"halebench-cg": true, "halebench-pids": true, "halebench-home": true},
	"/var/tmp":    nil,
	"/dev/shm":    nil,
	"/dev/mqueue": nil,
}

// homeDir is every bench's HOME: empty, owned by root and not writable by
// the bench, so nothing can be planted where a runtime looks for user
// configuration (Python's user site, npm's and cargo's dot folders).
const homeDir = "/run/halebench-home"

// makeHome creates the bench's read-only HOME.
func makeHome() error {
	if err := os.Mkdir(homeDir, 0o555); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("making the benches' HOME %s: %w", homeDir, err)
	}
	if err := os.Chown(homeDir, 0, 0); err != nil {
		return fmt.Errorf("chown %s: %w", homeDir, err)
	}
	return os.Chmod(homeDir, 0o555)
}

// room is the room's state over a session. sealed holds the room
// directories that lie on a read-only mount and that a clean found empty:
// no process can write there, and none can make the mount writable (that
// needs mount(2), which the seccomp filter denies every process here, the
// sampler included, before the first sample), so they are not listed
// again. On an engine whose image layers are a FUSE file system
// (fuse-overlayfs), each listing of the image's /var/tmp is a round trip
// to its daemon.
type room struct {
	sealed map[string]bool
}

// ipcDirs are the room directories that belong to the container's IPC
// namespace rather than to the container: when two containers share one
// (an xproc pair), they and System V IPC are one room for both.
var ipcDirs = map[string]bool{"/dev/shm": true, "/dev/mqueue": true}

// clean empties every room directory, removes every System V IPC object,
// and checks that nothing is left; an error means the container must not
// serve another sample.
func (r *room) clean() error { return r.cleanOf(true) }

// cleanOwn is clean but for the IPC namespace's part (ipcDirs and System V
// IPC): that of a guest in another container's IPC namespace (wire.RoomGuest),
// whose host's bench may still be using it and whose host's sampler empties it.
func (r *room) cleanOwn() error { return r.cleanOf(false) }

func (r *room) cleanOf(ipc bool) error {
	errs := []error{r.emptyDirs(roomDirs, ipc)}
	if names, err := dirNames(homeDir); err != nil || len(names) > 0 {
		errs = append(errs, fmt.Errorf("the benches' HOME is not empty: %v %v", names, err))
	}
	if ipc {
		errs = append(errs, removeSysVIPC())
	}
	return errors.Join(errs...)
}

// emptyDirs empties each of dirs but what it keeps (emptyDir) and is not
// sealed (nor one of ipcDirs unless ipc), and seals those it found empty on
// a read-only mount.
func (r *room) emptyDirs(dirs map[string]map[string]bool, ipc bool) error {
	var errs []error
	for dir, keep := range dirs {
		if r.sealed[dir] || (!ipc && ipcDirs[dir]) {
			continue
		}
		if err := emptyDir(dir, keep); err != nil {
			errs = append(errs, err)
		} else if readOnlyMount(dir) {
			if r.sealed == nil {
				r.sealed = map[string]bool{}
			}
			r.sealed[dir] = true
		}
	}
	return errors.Join(errs...)
}

// readOnlyMount says whether dir lies on a mount that is read-only.
func readOnlyMount(dir string) bool {
	var st syscall.Statfs_t
	for {
		err := syscall.Statfs(dir, &st)
		if err == nil {
			return st.Flags&stRdonly != 0
		}
		if err != syscall.EINTR {
			return false
		}
	}
}

// stRdonly is ST_RDONLY of statfs(2)'s f_flags.
const stRdonly = 1

// emptyDir removes everything in dir but keep (links are removed, not
// followed) and checks nothing else is left. A directory the image does not
// have is empty; one the image reaches through a link (its /var/tmp a link
// to /run or /bench) is refused, never followed, since what the link names
// is not a bench's room.
func emptyDir(dir string, keep map[string]bool) error {
	if err := noLinkOnPath(dir); err != nil {
		return err
	}
	names, err := dirNames(dir)
	if err != nil {
		return err
	}
	removed := 0
	for _, n := range names {
		if !keep[n] {
			_ = os.RemoveAll(filepath.Join(dir, n))
			removed++
		}
	}
	if removed == 0 {
		return nil
	}
	left, err := dirNames(dir)
	for _, n := range left {
		if !keep[n] {
			return fmt.Errorf("emptying %s: %s is left", dir, n)
		}
	}
	return err
}

// noLinkOnPath refuses a path of which any part is a symbolic link. The
// room's parents are the image's, owned by root: no bench can swap one
// between this check and the clean.
func noLinkOnPath(dir string) error {
	for p := filepath.Clean(dir); p != "/" && p != "."; p = filepath.Dir(p) {
		var st syscall.Stat_t
		err := syscall.Lstat(p, &st)
		if errors.Is(err, syscall.ENOENT) {
			continue
		}
		if err != nil {
			return &os.PathError{Op: "lstat", Path: p, Err: err}
		}
		if st.Mode&syscall.S_IFMT == syscall.S_IFLNK {
			target, _ := os.Readlink(p)
			return fmt.Errorf("%s is a link (to %q) in this image: the sampler does not follow it to empty %s; use an image where it is a directory", p, target, dir)
		}
	}
	return nil
}

// sysvKinds are the System V IPC object kinds: where the kernel lists
// them, how one is removed (IPC_RMID is 0; semctl takes it third), and how
// many the IPC namespace holds: SHM_INFO's used_ids, SEM_INFO's semusz and
// MSG_INFO's msgpool, each the namespace's count of objects in use, in one
// system call where the table is a file to open, format and read.
var sysvKinds = []struct {
	list  string
	rm    func(id uintptr) syscall.Errno
	inUse func(buf *[16]int32) (int32, syscall.Errno)
}{
	{"/proc/sysvipc/shm", func(id uintptr) syscall.Errno { return rawErr(syscall.Syscall(syscall.SYS_SHMCTL, id, 0, 0)) },
		func(buf *[16]int32) (int32, syscall.Errno) {
			e := rawErr(syscall.Syscall(syscall.SYS_SHMCTL, 0, shmInfo, uintptr(unsafe.Pointer(buf))))
			return buf[0], e
		}},
	{"/proc/sysvipc/sem", func(id uintptr) syscall.Errno { return rawErr(syscall.Syscall(syscall.SYS_SEMCTL, id, 0, 0)) },
		func(buf *[16]int32) (int32, syscall.Errno) {
			e := rawErr(syscall.Syscall6(syscall.SYS_SEMCTL, 0, 0, semInfo, uintptr(unsafe.Pointer(buf)), 0, 0))
			return buf[7], e
		}},
	{"/proc/sysvipc/msg", func(id uintptr) syscall.Errno { return rawErr(syscall.Syscall(syscall.SYS_MSGCTL, id, 0, 0)) },
		func(buf *[16]int32) (int32, syscall.Errno) {
			e := rawErr(syscall.Syscall(syscall.SYS_MSGCTL, 0, msgInfo, uintptr(unsafe.Pointer(buf))))
			return buf[0], e
		}},
}

// The *_INFO commands of shmctl, semctl and msgctl.
const (
	shmInfo = 14
	semInfo = 19
	msgInfo = 12
)

func rawErr(_, _ uintptr, e syscall.Errno) syscall.Errno { return e }

// removeSysVIPC removes every shared memory segment, semaphore set and
// message queue of the container's IPC namespace, and checks none is left
// (every process of the sample is dead, so none is attached).
func removeSysVIPC() error {
	var errs []error
	var buf [16]int32
	for _, k := range sysvKinds {
		if n, e := k.inUse(&buf); e == 0 && n == 0 {
			continue // none: no table to read
		}
		ids, err := sysvIDs(k.list)
		for _, id := range ids {
			if e := k.rm(uintptr(id)); e != 0 && e != syscall.EINVAL && e != syscall.EIDRM {
				errs = append(errs, fmt.Errorf("removing System V IPC object %d of %s: %w", id, k.list, e))
			}
		}
		if len(ids) > 0 && err == nil {
			if ids, err = sysvIDs(k.list); err == nil && len(ids) > 0 {
				err = fmt.Errorf("%s still lists %v", k.list, ids)
			}
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// sysvIDs reads the ids (second column) of a /proc/sysvipc table.
func sysvIDs(path string) ([]int, error) {
	b, err := readAll(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var ids []int
	lines := strings.Split(string(b), "\n")
	for _, line := range lines[1:] {
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		if id, err := strconv.Atoi(f[1]); err == nil {
			ids = append(ids, id)
		}
	}
	return ids, nil
}
