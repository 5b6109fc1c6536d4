package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"
)

// MaxFileBytes bounds a stored report read back: a whole-suite run with
// every sample kept is a few MiB.
const MaxFileBytes = 64 << 20

// ReadBounded reads a stored report's bytes as an input that may be
// hostile: never through a symlink, never from a FIFO or device (opened
// non-blocking, then checked to be a regular file), and at most
// MaxFileBytes.
func ReadBounded(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%s is a symlink; give the report file itself", path)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s); give a report file", path, st.Mode().Type())
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("%s is over %d MiB; no report is that large", path, MaxFileBytes>>20)
	}
	return data, nil
}

// ReadFile reads a run report that a run wrote (through ReadBounded).
func ReadFile(path string) (*Report, error) {
	data, err := ReadBounded(path)
	if err != nil {
		return nil, err
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s is not a JSON report: %v", path, err)
	}
	if r.Schema != Schema {
		return nil, fmt.Errorf("%s has schema %q; want a run report (%s)", path, r.Schema, Schema)
	}
	return &r, nil
}

// WriteFile writes v as indented JSON to path through a temporary file,
// synced, renamed over it, and the folder synced: a reader never sees half
// a report, and a crash right after a run does not lose the one it wrote.
func WriteFile(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing report: %w", err)
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if err := writeSynced(tmp, append(data, '\n')); err != nil {
		return fmt.Errorf("writing report %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing report: %w", err)
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// writeSynced writes data to f, readable by all as reports always were,
// syncs and closes it.
func writeSynced(f *os.File, data []byte) error {
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
