package suite

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/hale-lang/halebench/orchestrator/hostfile"
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
// file only and at most SourceCap bytes (hostfile: checked on the open
// descriptor, so a file swapped after discovery is refused too).
func ReadSource(path string) ([]byte, error) {
	data, err := hostfile.Read(filepath.Dir(path), filepath.Base(path), SourceCap)
	if err != nil {
		if errors.Is(err, hostfile.ErrRefused) {
			return nil, fmt.Errorf("suite file %w", err)
		}
		return nil, fmt.Errorf("reading suite file %s: %w", path, err)
	}
	return data, nil
}
