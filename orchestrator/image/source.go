package image

import (
	"os"
	"path/filepath"

	"github.com/hale-lang/halebench/orchestrator/hostfile"
)

// OpenSource opens a file of a checkout or vendor tree for reading on this
// host, where the tree may be anyone's: never through a symlink (a
// Cargo.toml linked to a host file is refused, not read), never a FIFO or
// device (opened non-blocking, then checked to be a regular file)
// (hostfile). Its caller bounds what it reads: a manifest is capped, a
// copied tree is the tree it is.
func OpenSource(p string) (*os.File, error) {
	return hostfile.Open(filepath.Dir(p), filepath.Base(p), 0)
}
