package lifecycle

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// LockWait is how long a run waits for the CPUs before it gives up.
var LockWait = 2 * time.Hour

// LockCPUs makes runs on one host take turns at sampling, so that the CPUs
// one run pins are not silently shared with another. The second run says
// whom it waits for, and waits (at most LockWait).
func LockCPUs(ctx context.Context, log io.Writer) (func(), error) {
	dir, err := LockDir()
	if err != nil {
		return nil, err
	}
	return lockIn(ctx, log, dir, LockWait)
}

// LockDir is the directory of the CPU lock, one only halebench's user can
// write: /run/halebench for root, $XDG_RUNTIME_DIR/halebench for another
// user that has one, else halebench-<uid> in the temp dir. It is made 0700
// if missing; one that is a symlink, belongs to another user or lets others
// write is refused.
func LockDir() (string, error) {
	uid := os.Geteuid()
	var dir string
	switch rt := os.Getenv("XDG_RUNTIME_DIR"); {
	case uid == 0:
		dir = "/run/halebench"
	case rt != "":
		dir = filepath.Join(rt, "halebench")
	default:
		dir = filepath.Join(os.TempDir(), "halebench-"+strconv.Itoa(uid))
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return "", fmt.Errorf("CPU lock directory %s: %w", dir, err)
	}
	return dir, checkPrivateDir(dir)
}

// checkPrivateDir refuses a lock directory another user could have planted
// or could write into.
func checkPrivateDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("CPU lock directory %s: %w", dir, err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case fi.Mode()&os.ModeSymlink != 0:
		return fmt.Errorf("CPU lock directory %s is a symlink: refusing it (remove it, halebench makes its own)", dir)
	case !fi.IsDir():
		return fmt.Errorf("CPU lock directory %s is not a directory: remove it", dir)
	case !ok || int(st.Uid) != os.Geteuid():
		return fmt.Errorf("CPU lock directory %s belongs to another user: refusing it (remove it, halebench makes its own)", dir)
	case fi.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("CPU lock directory %s is writable by others (mode %v): chmod 700 it", dir, fi.Mode().Perm())
	}
	return nil
}

func lockIn(ctx context.Context, log io.Writer, dir string, wait time.Duration) (func(), error) {
	if err := checkPrivateDir(dir); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, "cpus.lock")
	fd, err := unix.Open(path, unix.O_CREAT|unix.O_RDWR|unix.O_NOFOLLOW|unix.O_CLOEXEC|unix.O_NONBLOCK, 0o600)
	if err != nil {
		if errors.Is(err, unix.ELOOP) {
			return nil, fmt.Errorf("CPU lock %s is a symlink: refusing to follow it (remove it)", path)
		}
		return nil, fmt.Errorf("CPU lock %s: %w", path, err)
	}
	f := os.NewFile(uintptr(fd), path)
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("CPU lock %s is not a regular file: remove it", path)
	}
	said := false
	giveUp := time.After(wait)
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			break
		}
		if err != unix.EWOULDBLOCK {
			f.Close()
			return nil, fmt.Errorf("CPU lock %s: %w", path, err)
		}
		holder := readHolder(f)
		if !said {
			fmt.Fprintf(log, "waiting for the CPUs: another halebench run (%s) is sampling on this host\n", holder)
			said = true
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		case <-giveUp:
			f.Close()
			return nil, fmt.Errorf("the CPUs are still held after %s by another halebench run (%s, lock %s): let it finish or stop it, then run again", wait, holder, path)
		case <-time.After(500 * time.Millisecond):
		}
	}
	f.Truncate(0)
	f.WriteAt([]byte(fmt.Sprintf("pid %d since %s\n", os.Getpid(), time.Now().UTC().Format(time.RFC3339))), 0)
	return func() {
		f.Truncate(0)
		unix.Flock(int(f.Fd()), unix.LOCK_UN)
		f.Close()
	}, nil
}

func readHolder(f *os.File) string {
	b := make([]byte, 200)
	n, _ := f.ReadAt(b, 0)
	h := strings.TrimSpace(string(b[:n]))
	if h == "" {
		return "holder unknown"
	}
	return h
}
