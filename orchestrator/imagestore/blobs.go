package imagestore

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// DirMode is every folder's mode in the cache folder, FileMode every file's:
// readable by all (see FileMode).
const DirMode = 0o755

// blobs is the folder's DIR/blobs/sha256, opened one component at a time and
// never through a link; every blob is opened, made and renamed relative to
// that descriptor, so a link put anywhere on the way is refused, not
// followed.
type blobs struct{ d *os.File }

// openBlobs opens DIR/blobs/sha256, making it (mode DirMode) when create is
// set; without create a missing folder is os.ErrNotExist.
func (c *Cache) openBlobs(create bool) (*blobs, error) {
	d, err := openDir(unix.AT_FDCWD, c.dir, create)
	for _, name := range []string{"blobs", "sha256"} {
		if err != nil {
			return nil, err
		}
		next, nerr := openDir(int(d.Fd()), name, create)
		d.Close()
		d, err = next, nerr
	}
	if err != nil {
		return nil, err
	}
	return &blobs{d: d}, nil
}

// openDir opens the folder name relative to dirfd without following a link
// (making it first when create is set, and giving it DirMode whatever the
// umask).
func openDir(dirfd int, name string, create bool) (*os.File, error) {
	if create {
		err := unix.Mkdirat(dirfd, name, DirMode)
		if err == nil {
			err = fchmodatNoFollow(dirfd, name, DirMode)
		}
		if err != nil && !errors.Is(err, unix.EEXIST) {
			return nil, fmt.Errorf("making %s: %w", name, err)
		}
	}
	fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
		return nil, fmt.Errorf("%s in the cache folder is not a folder (a link or a file): remove it", name)
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	return os.NewFile(uintptr(fd), name), nil
}

func fchmodatNoFollow(dirfd int, name string, mode uint32) error {
	fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	return unix.Fchmod(fd, mode)
}

func (b *blobs) Close() { b.d.Close() }

// hexOf is the file name of a sha256 digest, or "" when it is not one.
func hexOf(digest string) string {
	if !digestRE.MatchString(digest) {
		return ""
	}
	return digest[len("sha256:"):]
}

// open opens the blob bl for reading: a regular file (never a link, never
// blocking on a FIFO) named by a hex digest, of the size recorded. Its
// content is checked against its name by whoever reads it (see verified).
func (b *blobs) open(bl Blob) (*os.File, error) {
	name := hexOf(bl.Digest)
	if name == "" {
		return nil, fmt.Errorf("blob %q is not a sha256 digest", bl.Digest)
	}
	fd, err := unix.Openat(int(b.d.Fd()), name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ELOOP) {
		return nil, fmt.Errorf("blob %s is not a regular file (a link)", name[:16])
	}
	if err != nil {
		return nil, fmt.Errorf("blob %s: %w", name[:16], err)
	}
	f := os.NewFile(uintptr(fd), name)
	st, err := f.Stat()
	switch {
	case err != nil:
	case !st.Mode().IsRegular():
		err = fmt.Errorf("blob %s is not a regular file (%s)", name[:16], st.Mode().Type())
	case st.Size() != bl.Size:
		err = fmt.Errorf("blob %s has %d bytes, its entry says %d", name[:16], st.Size(), bl.Size)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// has says whether the folder holds bl as a regular file of its size (its
// content is checked when it is read).
func (b *blobs) has(bl Blob) bool {
	f, err := b.open(bl)
	if err == nil {
		f.Close()
	}
	return err == nil
}

// put stores what r holds (at most max bytes) as a blob named by its
// sha256: written to a temporary file, synced, renamed.
func (b *blobs) put(r io.Reader, max int64) (Blob, error) {
	var rnd [8]byte
	_, _ = rand.Read(rnd[:])
	tmp := ".tmp-" + hex.EncodeToString(rnd[:])
	fd, err := unix.Openat(int(b.d.Fd()), tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, FileMode)
	if err != nil {
		return Blob{}, fmt.Errorf("writing a blob: %w", err)
	}
	f := os.NewFile(uintptr(fd), tmp)
	defer unix.Unlinkat(int(b.d.Fd()), tmp, 0)
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), io.LimitReader(r, max+1))
	if err == nil && n > max {
		err = fmt.Errorf("a blob is over %d bytes", max)
	}
	if err == nil {
		err = f.Chmod(FileMode)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return Blob{}, err
	}
	// Renamed over a blob of that name, if the folder holds one: what was
	// just hashed replaces whatever is there (a copy changed since is not
	// kept for its name).
	bl := Blob{Digest: "sha256:" + hex.EncodeToString(h.Sum(nil)), Size: n}
	if err := unix.Renameat(int(b.d.Fd()), tmp, int(b.d.Fd()), hexOf(bl.Digest)); err != nil {
		return Blob{}, fmt.Errorf("naming blob %s: %w", bl.Digest[:23], err)
	}
	return bl, b.d.Sync()
}

// remove removes the blob named digest (a link is removed, not followed).
func (b *blobs) remove(digest string) {
	if name := hexOf(digest); name != "" {
		b.unlink(name)
	}
}

func (b *blobs) unlink(name string) { _ = unix.Unlinkat(int(b.d.Fd()), name, 0) }

// names lists the folder's regular files (never a link) with their sizes.
func (b *blobs) names() (map[string]int64, error) {
	names, err := b.d.Readdirnames(-1)
	if err != nil {
		return nil, err
	}
	out := map[string]int64{}
	for _, n := range names {
		var st unix.Stat_t
		if unix.Fstatat(int(b.d.Fd()), n, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFREG {
			out[n] = st.Size
		}
	}
	return out, nil
}

// verified reads exactly bl.Size bytes of f and, at their end, fails unless
// their sha256 is bl's name: a blob is checked as it is read, so what is
// checked is what was read.
type verified struct {
	r    io.Reader
	h    hashWriter
	want string
	left int64
}

type hashWriter interface {
	io.Writer
	Sum([]byte) []byte
}

// ErrBlobChanged marks a blob whose bytes are not those its name digests.
var ErrBlobChanged = errors.New("a blob's bytes are not those its name digests")

func newVerified(f io.Reader, bl Blob) *verified {
	return &verified{r: io.LimitReader(f, bl.Size), h: sha256.New(), want: hexOf(bl.Digest), left: bl.Size}
}

func (v *verified) Read(p []byte) (int, error) {
	n, err := v.r.Read(p)
	v.h.Write(p[:n])
	v.left -= int64(n)
	if err == io.EOF {
		if v.left != 0 {
			return n, fmt.Errorf("blob %s ends %d bytes early", v.want[:16], v.left)
		}
		if got := hex.EncodeToString(v.h.Sum(nil)); got != v.want {
			return n, fmt.Errorf("blob %s holds bytes of sha256 %s: %w", v.want[:16], got[:16], ErrBlobChanged)
		}
	}
	return n, err
}

// isTemp says whether name is a leftover of an interrupted write.
func isTemp(name string) bool { return strings.HasPrefix(name, ".tmp-") }
