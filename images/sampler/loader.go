//go:build linux

package main

// Every file the loader may map into a counted program, found from the
// outside and over-approximated where the loader would choose: the
// program, its interpreter (which must be the image's own loader), each
// library it needs wherever the loader may find it (every folder of every
// RPATH and RUNPATH, with $ORIGIN, $LIB and $PLATFORM expanded to every
// value they can take, ld.so.cache, the default folders and each one's
// glibc-hwcaps subfolders; every candidate, not only the first), the
// image's /etc/ld.so.preload, and every file under /bench besides (a
// program there other than the counted one is not mapped as a library:
// ld.so refuses executables). A file that exists but cannot be read, a
// token the loader knows and this does not, or more files than the bound
// is a refusal, never an honest answer.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/hale-lang/halebench/images/sampler/wire"
)

// maxLoadable bounds the files one program's scan looks at; more is a
// refusal.
const maxLoadable = 4096

// countDir is a counted run's working folder (countOnce), which a relative
// library name is opened from.
const countDir = "/"

// standardInterps are the images' own loaders; a program naming another
// is not counted (its interpreter could map anything).
var standardInterps = map[string]bool{"/lib64/ld-linux-x86-64.so.2": true, "/lib/ld-linux-aarch64.so.1": true}

// defaultLibDirs are where ld.so looks last (Debian's multiarch folders,
// then the traditional ones), for either architecture.
var defaultLibDirs = []string{"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
	"/lib64", "/usr/lib64", "/lib", "/usr/lib", "/usr/local/lib"}

// dstValues are what each dynamic string token may expand to (ORIGIN is
// the object's folder): every value glibc gives $LIB and $PLATFORM on
// either architecture.
var dstValues = map[string][]string{
	"LIB":      {"lib", "lib64", "lib/x86_64-linux-gnu", "lib/aarch64-linux-gnu", "lib32", "libx32"},
	"PLATFORM": {"x86_64", "haswell", "xeon_phi", "i686", "aarch64"},
}

// legacyHwcaps are the subfolders older glibc searched in each folder.
var legacyHwcaps = []string{"tls", "haswell", "x86_64", "xeon_phi", "avx512_1", "aarch64"}

// loadWalk is one program's scan: what is queued, what was seen, and the
// folders the program's own RPATH and RUNPATH add to every search.
type loadWalk struct {
	prog     string
	seen     map[string]bool
	queue    []string
	progDirs []string
	files    int // files found by name
}

// loadableMagic is the first client-request sequence in a file the loader
// may map into prog (at -1: none), or why that cannot be told.
func loadableMagic(prog string) (magicAt, error) {
	w := &loadWalk{prog: prog, seen: map[string]bool{}, queue: []string{prog}}
	pre, err := preloaded()
	if err != nil {
		return magicAt{}, err
	}
	w.queue = append(w.queue, pre...)
	for len(w.queue) > 0 {
		path := w.queue[0]
		w.queue = w.queue[1:]
		if found, err := w.byName(path); err != nil || found.at >= 0 {
			return found, err
		}
	}
	bench, err := benchFiles()
	if err != nil {
		return magicAt{}, err
	}
	for _, path := range bench {
		if found, err := w.inBench(path); err != nil || found.at >= 0 {
			return found, err
		}
	}
	return magicAt{at: -1}, nil
}

// byName scans a file the loader reaches by name and queues what it needs.
func (w *loadWalk) byName(path string) (magicAt, error) {
	none := magicAt{at: -1}
	if w.seen[path] || path == wire.ClockGatePath {
		return none, nil
	}
	w.seen[path] = true
	real, sc, err := scanPath(path)
	switch {
	case (errors.Is(err, fs.ErrNotExist) || errors.Is(err, errIsDir)) && path != w.prog:
		return none, nil // the loader does not open it either
	case err != nil:
		return none, err
	}
	if w.files++; w.files > maxLoadable {
		return none, fmt.Errorf("it reaches more than %d files", maxLoadable)
	}
	switch {
	case real == wire.ClockGatePath:
		return none, nil
	case sc.found.at >= 0:
		sc.found.path = path
		return sc.found, nil
	}
	if path == w.prog {
		if sc.interp != "" && !standardInterps[sc.interp] {
			return none, fmt.Errorf("it names a program interpreter of its own, %s, which could map anything", sc.interp)
		}
		if sc.interp != "" {
			w.queue = append(w.queue, sc.interp)
		}
		if sc.shebang != "" {
			w.queue = append(w.queue, sc.shebang)
		}
		if w.progDirs, err = expandPaths(sc.paths, originsOf(path, real)); err != nil {
			return none, err
		}
	}
	libs, err := w.candidates(path, real, sc)
	w.queue = append(w.queue, libs...)
	return none, err
}

// inBench scans a file of /bench that no name may reach: an executable
// other than the counted program is passed over (ld.so maps none as a
// library).
func (w *loadWalk) inBench(path string) (magicAt, error) {
	if w.seen[path] || path == wire.ClockGatePath {
		return magicAt{at: -1}, nil
	}
	w.seen[path] = true
	real, sc, err := scanPath(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) || errors.Is(err, errIsDir):
		return magicAt{at: -1}, nil
	case err != nil:
		return magicAt{}, err
	case real == wire.ClockGatePath || sc.program:
		return magicAt{at: -1}, nil
	}
	sc.found.path = path
	return sc.found, nil
}

var errIsDir = errors.New("a folder")

// scanPath resolves path's links (never into /proc, /sys or /dev) and
// scans the file, once per version of it (scanCache).
func scanPath(path string) (string, fileScan, error) {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", fileScan{}, err
	}
	if engineMade(real) {
		return real, fileScan{}, fmt.Errorf("%s (%s) is not a file of the image", path, real)
	}
	var st syscall.Stat_t
	if err := syscall.Lstat(real, &st); err != nil {
		return real, fileScan{}, err
	}
	if st.Mode&syscall.S_IFMT == syscall.S_IFDIR {
		return real, fileScan{}, errIsDir
	}
	id := fileID{st.Dev, st.Ino, st.Size, st.Mtim.Nano(), st.Ctim.Nano()}
	scanCache.Lock()
	c, ok := scanCache.m[real]
	scanCache.Unlock()
	if ok && c.id == id {
		return real, c.scan, nil
	}
	sc, err := scanFile(real)
	if err != nil {
		return real, sc, err
	}
	scanCache.Lock()
	scanCache.m[real] = cachedScan{id, sc}
	scanCache.Unlock()
	return real, sc, nil
}

// A file's scan is kept while the file is the same (device, inode, size,
// modification and change times): the image's files do not change from
// one counted job to the next, so each is read once a session.
type fileID struct {
	dev, ino           uint64
	size, mtime, ctime int64
}

type cachedScan struct {
	id   fileID
	scan fileScan
}

var scanCache = struct {
	sync.Mutex
	m map[string]cachedScan
}{m: map[string]cachedScan{}}

// originsOf is what $ORIGIN may be for an object reached as path: its
// folder as named and as resolved.
func originsOf(path, real string) []string {
	a, b := filepath.Dir(path), filepath.Dir(real)
	if a == b {
		return []string{a}
	}
	return []string{a, b}
}

// candidates is every path the loader may open for each library the
// object at path (resolved: real) needs.
func (w *loadWalk) candidates(path, real string, sc fileScan) ([]string, error) {
	if len(sc.needed) == 0 {
		return nil, nil
	}
	origins := originsOf(path, real)
	own, err := expandPaths(sc.paths, origins)
	if err != nil {
		return nil, err
	}
	dirs := append(append(own, w.progDirs...), defaultLibDirs...)
	var out []string
	for _, name := range sc.needed {
		if strings.Contains(name, "/") {
			names, err := expand(name, origins)
			if err != nil {
				return nil, err
			}
			for _, n := range names {
				out = append(out, filepath.Join(countDir, n)) // relative: from the run's folder
			}
			continue
		}
		out = append(out, inDirs(name, dirs)...)
		cached, err := ldCache()
		if err != nil {
			return nil, err
		}
		out = append(out, cached[name]...)
	}
	return out, nil
}

// inDirs is name in each folder and in each of its hwcaps subfolders.
func inDirs(name string, dirs []string) []string {
	var out []string
	for _, d := range dirs {
		out = append(out, filepath.Join(d, name))
		subs, _ := os.ReadDir(filepath.Join(d, "glibc-hwcaps"))
		for _, s := range subs {
			out = append(out, filepath.Join(d, "glibc-hwcaps", s.Name(), name))
		}
		for _, s := range legacyHwcaps {
			out = append(out, filepath.Join(d, s, name))
		}
	}
	return out
}

// expandPaths splits RPATH and RUNPATH values into folders, each token
// expanded to every value; an empty or relative folder is the run's.
func expandPaths(values, origins []string) ([]string, error) {
	var out []string
	for _, v := range values {
		for _, p := range strings.Split(v, ":") {
			dirs, err := expand(p, origins)
			if err != nil {
				return nil, err
			}
			for _, d := range dirs {
				out = append(out, filepath.Join(countDir, d))
			}
		}
	}
	return out, nil
}

// expand is s with each dynamic string token ($NAME or ${NAME}) replaced
// by every value it may take: one string per combination. A token this
// does not know is an error (the loader might give it a value).
func expand(s string, origins []string) ([]string, error) {
	i := strings.IndexByte(s, '$')
	if i < 0 {
		return []string{s}, nil
	}
	rest := s[i+1:]
	var name string
	if strings.HasPrefix(rest, "{") {
		end := strings.IndexByte(rest, '}')
		if end < 0 {
			return nil, fmt.Errorf("an unclosed ${ in %q", s)
		}
		name, rest = rest[1:end], rest[end+1:]
	} else {
		n := 0
		for n < len(rest) && (rest[n] == '_' || rest[n] >= 'A' && rest[n] <= 'Z' || rest[n] >= 'a' && rest[n] <= 'z' || rest[n] >= '0' && rest[n] <= '9') {
			n++
		}
		name, rest = rest[:n], rest[n:]
	}
	values := dstValues[name]
	if name == "ORIGIN" {
		values = origins
	}
	if values == nil {
		return nil, fmt.Errorf("the token $%s in %q, whose value the scan cannot tell", name, s)
	}
	tails, err := expand(rest, origins)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, v := range values {
		for _, t := range tails {
			out = append(out, s[:i]+v+t)
		}
	}
	return out, nil
}

// readSmall reads a regular file of the image (no link followed, without
// blocking, at most max bytes); a file that is not there is nil.
func readSmall(path string, max int64) ([]byte, error) {
	f, size, err := openRegular(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer f.Close()
	if size > max {
		return nil, fmt.Errorf("%s is %d bytes, more than the %d read", path, size, max)
	}
	return io.ReadAll(io.LimitReader(f, max))
}

// preloaded is what the image's /etc/ld.so.preload makes ld.so load into
// every program: each path, or each name in the default folders.
func preloaded() ([]string, error) {
	b, err := readSmall("/etc/ld.so.preload", 1<<20)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, name := range strings.FieldsFunc(string(b), func(r rune) bool { return r == ':' || r == ' ' || r == '\t' || r == '\n' }) {
		if strings.Contains(name, "/") {
			out = append(out, name)
		} else {
			out = append(out, inDirs(name, defaultLibDirs)...)
		}
	}
	return out, nil
}

// ldCache is every path the image's /etc/ld.so.cache holds, by base name
// (read once: the image's root is read-only).
var ldCache = sync.OnceValues(func() (map[string][]string, error) {
	b, err := readSmall("/etc/ld.so.cache", 64<<20)
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, s := range bytes.Split(b, []byte{0}) {
		if i := bytes.LastIndexByte(s, '/'); i >= 0 {
			p := string(s[bytes.IndexByte(s, '/'):])
			out[filepath.Base(p)] = append(out[filepath.Base(p)], p)
		}
	}
	return out, nil
})

// benchFiles is every file and link under /bench; anything else there (a
// node, a FIFO, a socket) is an error, as is more than maxLoadable.
func benchFiles() ([]string, error) {
	var out []string
	err := filepath.WalkDir(benchRoot, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir():
			return nil
		case d.Type()&^fs.ModeSymlink != 0:
			return fmt.Errorf("%s is a %s, not a file", path, d.Type())
		case len(out) >= maxLoadable:
			return fmt.Errorf("%s holds more than %d files", benchRoot, maxLoadable)
		}
		out = append(out, path)
		return nil
	})
	return out, err
}
