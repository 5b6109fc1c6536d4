package image

import (
	"archive/tar"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// canonical rewrites one tar header so that only what the file is, not when
// or by whom it was written, is left: mtime clamped to the epoch and whole
// seconds, no access or change time, no owner names, only xattr records.
func canonical(h *tar.Header, epoch time.Time) {
	if h.ModTime.After(epoch) {
		h.ModTime = epoch
	}
	h.ModTime = h.ModTime.Truncate(time.Second)
	h.AccessTime, h.ChangeTime = time.Time{}, time.Time{}
	h.Uname, h.Gname = "", ""
	//lint:ignore SA1019 the reader fills the deprecated field too; PAXRecords carry the same.
	h.Xattrs = nil
	var pax map[string]string
	for k, v := range h.PAXRecords {
		if strings.HasPrefix(k, "SCHILY.xattr.") {
			if pax == nil {
				pax = map[string]string{}
			}
			pax[k] = v
		}
	}
	h.PAXRecords = pax
	h.Format = tar.FormatUnknown // the writer picks the smallest format that holds it
}

// MaxNormaliseBytes bounds what rewriting one image writes to the host's
// temporary folder (its layers, uncompressed): the largest image halebench
// builds, the hale toolchain, is a few GiB.
var MaxNormaliseBytes int64 = 16 << 30

// ErrTooLarge marks an image over MaxNormaliseBytes.
var ErrTooLarge = errors.New("image too large to rewrite")

// budget is what is left of MaxNormaliseBytes for one image; as a writer
// it refuses the write that would go past it.
type budget struct{ left int64 }

func newBudget() *budget { return &budget{left: MaxNormaliseBytes} }

func (b *budget) Write(p []byte) (int, error) {
	if int64(len(p)) > b.left {
		return 0, fmt.Errorf("%w: its layers come to over %d MiB, halebench's cap for an image it rewrites in %s (image.MaxNormaliseBytes); is it the image meant?", ErrTooLarge, MaxNormaliseBytes>>20, os.TempDir())
	}
	b.left -= int64(len(p))
	return len(p), nil
}

// normaliseLayer copies a layer tar canonically into a file in dir and
// returns that file and its diff ID (sha256 of the uncompressed tar). What
// it writes is taken from b.
func normaliseLayer(r io.Reader, dir string, epoch time.Time, b *budget) (path, diffID string, err error) {
	f, err := os.CreateTemp(dir, "layer-*.tar")
	if err != nil {
		return "", "", err
	}
	defer func() {
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}()
	h := sha256.New()
	tw := tar.NewWriter(io.MultiWriter(b, f, h))
	tr := tar.NewReader(r)
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", "", fmt.Errorf("reading a layer: %w", err)
		}
		canonical(hdr, epoch)
		if err := tw.WriteHeader(hdr); err != nil {
			return "", "", fmt.Errorf("writing %s: %w", hdr.Name, err)
		}
		// Only regular files have data; for the rest this copies nothing.
		if _, err := io.Copy(tw, tr); err != nil {
			return "", "", fmt.Errorf("copying %s: %w", hdr.Name, err)
		}
	}
	if err := tw.Close(); err != nil {
		return "", "", err
	}
	return f.Name(), "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}
