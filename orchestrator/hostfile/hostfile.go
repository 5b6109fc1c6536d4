package hostfile

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// ErrRefused marks a file refused for what it is (a link on its path, not
// a regular file, over its cap), as opposed to one that is missing or
// unreadable: errors.Is(err, ErrRefused).
var ErrRefused = errors.New("refused")

// Refusal is a file refused, by its path and why.
type Refusal struct{ Name, Why string }

func (r *Refusal) Error() string        { return r.Name + " " + r.Why }
func (r *Refusal) Is(target error) bool { return target == ErrRefused }

func refused(name, format string, a ...any) error {
	return &Refusal{Name: name, Why: fmt.Sprintf(format, a...)}
}

// Open opens root/rel for reading: rel must be relative and name a
// regular file reached through no link (neither rel's last part nor any
// folder on the way; root itself is the caller's choice and may be one),
// opened non-blocking and checked on the descriptor. The file is at most
// max bytes when it is opened (max <= 0: no cap); a reader that must not
// see more than that reads through Read or LimitReader.
func Open(root, rel string, max int64) (*os.File, error) {
	name := filepath.Join(root, rel)
	if rel == "" || filepath.IsAbs(rel) || !filepath.IsLocal(rel) {
		return nil, refused(name, "is not a path below %s", root)
	}
	fd, err := openBeneath(root, filepath.Clean(rel))
	if err != nil {
		if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EXDEV) || errors.Is(err, unix.ENOTDIR) && linkOnPath(root, rel) != "" {
			link := linkOnPath(root, rel)
			if link == "" || strings.HasPrefix(link, name+" -> ") {
				to := ""
				if link != "" {
					to = " (" + strings.TrimPrefix(link, name+" ") + ")"
				}
				return nil, refused(name, "is a symlink%s: halebench reads such a file only where it lies, never through a link", to)
			}
			return nil, refused(name, "lies behind a symlink (%s): halebench reads such a file only where it lies, never through a link", link)
		}
		return nil, fmt.Errorf("opening %s: %w", name, err)
	}
	f := os.NewFile(uintptr(fd), name)
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("opening %s: %w", name, err)
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, refused(name, "is not a regular file (%s): refusing to read it", kind(st.Mode()))
	}
	if max > 0 && st.Size() > max {
		f.Close()
		return nil, refused(name, "is %d bytes, over the %d-byte cap for it: refusing to read it", st.Size(), max)
	}
	return f, nil
}

// OpenPath is Open of a file named by its own path: its folder is the root
// (taken as given), its last part is never followed.
func OpenPath(path string, max int64) (*os.File, error) {
	return Open(filepath.Dir(path), filepath.Base(path), max)
}

// Read returns the bytes of root/rel, opened as Open does, at most max
// (a file that grows past max while read is refused too).
func Read(root, rel string, max int64) ([]byte, error) {
	f, err := Open(root, rel, max)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(LimitReader(f, max))
	if err != nil {
		return nil, err
	}
	return data, nil
}

// SHA256 is the hex sha256 of root/rel, opened as Open does, read at most
// max bytes.
func SHA256(root, rel string, max int64) (string, error) {
	f, err := Open(root, rel, max)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, LimitReader(f, max)); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// LimitReader reads f up to max bytes and fails, naming f, when there is
// more (a file grown after Open checked its size); max <= 0 is no cap.
func LimitReader(f *os.File, max int64) io.Reader {
	if max <= 0 {
		return f
	}
	return &capped{f: f, left: max + 1, max: max}
}

type capped struct {
	f    *os.File
	left int64
	max  int64
}

func (c *capped) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, refused(c.f.Name(), "grew over the %d-byte cap for it while read", c.max)
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.f.Read(p)
	c.left -= int64(n)
	if c.left <= 0 {
		return n, refused(c.f.Name(), "grew over the %d-byte cap for it while read", c.max)
	}
	return n, err
}

// openBeneath opens rel below root without following any link.
func openBeneath(root, rel string) (int, error) {
	dfd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, err
	}
	defer unix.Close(dfd)
	how := &unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	}
	fd, err := unix.Openat2(dfd, rel, how)
	if !errors.Is(err, unix.ENOSYS) {
		return fd, err
	}
	return walk(dfd, rel)
}

// walk is openBeneath where openat2 is missing (kernels before 5.6, some
// seccomp profiles): one folder at a time, none of them a link.
func walk(dfd int, rel string) (int, error) {
	parts := strings.Split(rel, string(filepath.Separator))
	cur := dfd
	for i, p := range parts {
		last := i == len(parts)-1
		flags := unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_CLOEXEC
		if last {
			flags |= unix.O_NONBLOCK
		} else {
			flags |= unix.O_DIRECTORY
		}
		fd, err := unix.Openat(cur, p, flags, 0)
		if cur != dfd {
			unix.Close(cur)
		}
		if err != nil {
			return -1, err
		}
		cur = fd
	}
	return cur, nil
}

// linkOnPath names the first link on root/rel below root ("P -> T"), for
// the refusal; "" when none is found (any more).
func linkOnPath(root, rel string) string {
	p := root
	for _, part := range strings.Split(filepath.Clean(rel), string(filepath.Separator)) {
		p = filepath.Join(p, part)
		if st, err := os.Lstat(p); err == nil && st.Mode()&fs.ModeSymlink != 0 {
			t, _ := os.Readlink(p)
			return p + " -> " + t
		}
	}
	return ""
}

// Describe names what the entry at p is when it is not a regular file, for
// a refusal: "a symlink (-> T)", "a FIFO", "a character device", ….
func Describe(p string, m fs.FileMode) string {
	if m&fs.ModeSymlink != 0 {
		t, _ := os.Readlink(p)
		return "a symlink (-> " + t + ")"
	}
	return kind(m)
}

// kind names a file type for a refusal.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsDir():
		return "a folder"
	}
	return m.Type().String()
}
