package judge

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"syscall"
	"time"

	"github.com/hale-lang/halebench/orchestrator/stamp"
	"github.com/hale-lang/halebench/orchestrator/suite"
	"golang.org/x/sys/unix"
)

// Update merges new figures into the file at path under its lock: each
// bench's Record writes its metrics' keys, then each declared metric
// settles them (Fields.Settle) once the file's host drift is known; each
// bench keeps its tolerance, override, note and every key halebench does
// not know; the file records the machine. It is rewritten atomically and
// returns the file as written and the names it changed.
func Update(path string, m map[string]Measured, p Provenance, now time.Time) (*File, []string, error) {
	unlock, err := lock(path)
	if err != nil {
		return nil, nil, err
	}
	defer unlock()
	f, err := Load(path)
	if err != nil {
		return nil, nil, err
	}
	names := make([]string, 0, len(m))
	for name, v := range m {
		f.merge(name, v)
		names = append(names, name)
	}
	sort.Strings(names)
	// The host's drift over every bench now in the file floors each new
	// band; a band from a single run (no drift measured) is left a guess.
	if h := f.hostDrift(); h > 0 {
		f.HostDriftSigma = &h
	}
	f.floorDrift()
	for _, name := range names {
		for _, d := range declared {
			if d.Settle != nil {
				d.Settle(f.Benches[name])
			}
		}
	}
	f.Halebench, f.UpdatedAt = stamp.This(), now.UTC().Format(time.RFC3339)
	f.Subject, f.Toolchain, f.Host = p.Subject, p.Toolchain, p.Host
	if p.Arch != "" && p.Arch != "amd64" {
		f.Arch = p.Arch
	}
	if p.Machine != nil {
		f.Machine = p.Machine
	}
	if suite.IsSeed(p.Subject) {
		f.HaleVersion = p.Toolchain
	}
	// What is written must read back: a figure out of range is refused
	// here, before the old file is replaced.
	if msg := check(f); msg != "" {
		return nil, nil, fmt.Errorf("updating baselines %s: the new figures are out of range, file left untouched: %s", path, msg)
	}
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return nil, nil, err
	}
	return f, names, writeAtomic(path, append(data, '\n'))
}

// merge puts one bench's new figures into its entry, keeping what the
// entry carries beside them.
func (f *File) merge(name string, v Measured) {
	e := f.Benches[name]
	if e == nil {
		e = &Entry{}
		f.Benches[name] = e
	}
	if v.Kind != "" {
		e.Kind = v.Kind
	}
	if v.Record != nil {
		v.Record(e)
	}
}

// lock takes an exclusive lock on the lock file beside path, waiting for
// another updater. The lock file is opened as the baselines are read: a
// committed symlink or a FIFO in its place is refused, not followed.
func lock(path string) (func(), error) {
	lp := path + ".lock"
	fd, err := unix.Open(lp, unix.O_CREAT|unix.O_RDWR|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0o644)
	if errors.Is(err, unix.ELOOP) {
		return nil, fmt.Errorf("locking baselines %s: %s is a symlink: remove it (halebench makes its own lock file)", path, lp)
	}
	if err != nil {
		return nil, fmt.Errorf("locking baselines %s: %w", path, err)
	}
	lf := os.NewFile(uintptr(fd), lp)
	if st, err := lf.Stat(); err != nil || !st.Mode().IsRegular() {
		lf.Close()
		return nil, fmt.Errorf("locking baselines %s: %s is not a regular file: remove it (halebench makes its own lock file)", path, lp)
	}
	if err := unix.Flock(int(lf.Fd()), unix.LOCK_EX); err != nil {
		lf.Close()
		return nil, fmt.Errorf("locking baselines %s: %w", path, err)
	}
	return func() {
		unix.Flock(int(lf.Fd()), unix.LOCK_UN)
		lf.Close()
	}, nil
}

// writeAtomic replaces path with data: a temporary file with the old
// file's mode (and, as root, its owner), synced, renamed over path, and
// the folder synced, so a crash leaves the old file or the new one whole.
func writeAtomic(path string, data []byte) error {
	mode, uid, gid := fs.FileMode(0o644), -1, -1
	if st, err := os.Lstat(path); err == nil && st.Mode().IsRegular() {
		mode = st.Mode().Perm()
		if sys, ok := st.Sys().(*syscall.Stat_t); ok && os.Geteuid() == 0 {
			uid, gid = int(sys.Uid), int(sys.Gid)
		}
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing baselines %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	err = tmp.Chmod(mode)
	if err == nil && uid >= 0 {
		err = tmp.Chown(uid, gid)
	}
	if err == nil {
		_, err = tmp.Write(data)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err == nil {
		err = syncDir(dir)
	}
	if err != nil {
		return fmt.Errorf("writing baselines %s: %w", path, err)
	}
	return nil
}

// syncDir makes a rename in dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
