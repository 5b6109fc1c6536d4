package report

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Write replaces path with what write writes, readable with mode: a
// temporary file in path's folder (os.CreateTemp: O_EXCL, a random name),
// synced, renamed over path, and the folder synced, so a reader sees the
// old file or the new one whole. A symlink or anything but a regular file
// at path is refused; a write that fails leaves path as it was.
func AtomicWrite(path string, mode fs.FileMode, write func(w io.Writer) error) error {
	if st, err := os.Lstat(path); err == nil && !st.Mode().IsRegular() {
		what := "not a regular file"
		if st.Mode()&fs.ModeSymlink != 0 {
			what = "a symlink"
		}
		return fmt.Errorf("%s is %s: refusing to write through it (remove it, or give another path)", path, what)
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w (does its folder exist and is it writable?)", path, err)
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	err = write(tmp)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}
