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
	if err := notThrough(path); err != nil {
		return err
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

// notThrough refuses a path that is there but is no regular file (a link,
// a folder, a device): nothing is written through it.
func notThrough(path string) error {
	if st, err := os.Lstat(path); err == nil && !st.Mode().IsRegular() {
		what := "not a regular file"
		if st.Mode()&fs.ModeSymlink != 0 {
			what = "a symlink"
		}
		return fmt.Errorf("%s is %s: refusing to write through it (remove it, or give another path)", path, what)
	}
	return nil
}

// CheckWritable says, before any work, whether AtomicWrite could write
// path: its folder exists, and path is absent or a regular file.
func CheckWritable(path string) error {
	if err := notThrough(path); err != nil {
		return err
	}
	if st, err := os.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
		return fmt.Errorf("cannot write %s: its folder %s does not exist (create it first)", path, filepath.Dir(path))
	}
	return nil
}
