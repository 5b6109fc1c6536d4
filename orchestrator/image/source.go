package image

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// OpenSource opens a file of a checkout or vendor tree for reading on this
// host, where the tree may be anyone's: never through a symlink (a
// Cargo.toml linked to a host file is refused, not read), never a FIFO or
// device (opened non-blocking, then checked to be a regular file).
func OpenSource(p string) (*os.File, error) {
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%s is a symlink: a source tree's files are read on this host, never followed", p)
	}
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file: refusing to read it", p)
	}
	return f, nil
}
