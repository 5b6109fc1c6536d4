package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
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

// WriteFile writes v as indented JSON to path through the atomic writer (atomicfile.go): a
// synced temporary file renamed over it, so a reader never sees half a
// report and a crash right after a run does not lose the one it wrote; a
// symlink at path is refused, never followed.
func WriteFile(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := AtomicWrite(path, 0o644, func(w io.Writer) error {
		_, err := w.Write(append(data, '\n'))
		return err
	}); err != nil {
		return fmt.Errorf("writing report: %w", err)
	}
	return nil
}
