package suite

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// SourceCap is the largest file halebench reads from a suite: a bench
// source or a catalogue is a few KiB, so a bigger one is a mistake or an
// attack (a gigabyte of /dev/zero through a link), refused before it is read.
const SourceCap = 1 << 20

// checkEntry refuses what a suite must not hold where a source is expected:
// symlinks (they would be followed with halebench's rights), FIFOs, devices,
// sockets, and files over SourceCap.
func checkEntry(path string, fi fs.FileInfo) error {
	switch m := fi.Mode(); {
	case m&fs.ModeSymlink != 0:
		return fmt.Errorf("suite file %s is a symlink: halebench reads only regular files from a suite (put the file itself there)", path)
	case !m.IsRegular():
		return fmt.Errorf("suite file %s is not a regular file (%s): remove it from the suite", path, m.Type())
	case fi.Size() > SourceCap:
		return fmt.Errorf("suite file %s is %d bytes, over the %d-byte cap for a source: refusing to read it", path, fi.Size(), SourceCap)
	}
	return nil
}

// ReadSource reads a suite file without following a symlink, from a regular
// file only and at most SourceCap bytes: checked on the open descriptor, so
// a file swapped after discovery is refused too.
func ReadSource(path string) ([]byte, error) {
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		if errors.Is(err, unix.ELOOP) {
			return nil, fmt.Errorf("suite file %s is a symlink: halebench reads only regular files from a suite (put the file itself there)", path)
		}
		return nil, fmt.Errorf("reading suite file %s: %w", path, err)
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("reading suite file %s: %w", path, err)
	}
	if err := checkEntry(path, fi); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, SourceCap+1))
	if err != nil {
		return nil, fmt.Errorf("reading suite file %s: %w", path, err)
	}
	if len(data) > SourceCap {
		return nil, fmt.Errorf("suite file %s grew over the %d-byte cap while read: refusing it", path, SourceCap)
	}
	return data, nil
}
