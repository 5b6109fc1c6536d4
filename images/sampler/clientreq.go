//go:build linux

package main

// A counted program that issues Valgrind's client requests
// (CALLGRIND_TOGGLE_COLLECT, CALLGRIND_ZERO_STATS: two inline instructions,
// no header needed) can hide its work from its count: a 55-million
// instruction region counted 40. For a bench that is its reviewed source's
// business; for a compiler under test (a pull request's head in ab and
// bisect) it is not, since its output is not reviewed and a count is the
// verdict. So before a compiled program (one under /bench) is counted, the
// sampler looks in it, and in every library it needs, for the preamble of
// a client request; only halebench's clock gate may hold one. A program
// that does is not counted (count_failed, which never gates, with the
// file and the offset). Code that makes the sequence at run time (a JIT, a
// library it dlopens by a name it builds) is not seen: docs/security.md
// says so.

import (
	"bytes"
	"debug/elf"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/hale-lang/halebench/images/sampler/wire"
)

// clientRequestMagic is the amd64 client-request preamble: rol $3, $13,
// $61, $51 of %rdi, which rotates %rdi by 128 bits (a no-op) and which
// Valgrind's JIT recognises.
var clientRequestMagic = []byte{0x48, 0xc1, 0xc7, 0x03, 0x48, 0xc1, 0xc7, 0x0d, 0x48, 0xc1, 0xc7, 0x3d, 0x48, 0xc1, 0xc7, 0x33}

// clientRequestMagicARM64 is the aarch64 preamble (valgrind.h's
// PLAT_arm64_linux): ror x12, x12 by #3, #13, #51, #61, again 128 bits in
// all; each is EXTR x12, x12, x12, #n (0x93cc018c | n<<10), little-endian.
var clientRequestMagicARM64 = []byte{0x8c, 0x0d, 0xcc, 0x93, 0x8c, 0x35, 0xcc, 0x93, 0x8c, 0xcd, 0xcc, 0x93, 0x8c, 0xf5, 0xcc, 0x93}

// clientRequestMagics are the preambles looked for, by the architecture
// whose Valgrind recognises each. Every file is searched for all of them:
// the sampler runs natively, also beside an image of another architecture
// whose programs run under the host's emulator (Valgrind there counts
// the guest's instructions), and a sequence of either in any file refuses.
var clientRequestMagics = []struct {
	arch  string
	magic []byte
}{{"amd64", clientRequestMagic}, {"aarch64", clientRequestMagicARM64}}

// libDirs is where the loader finds a needed library when the program
// names no path of its own (Debian's multiarch folders first: amd64's,
// then arm64's; an image holds those of its own architecture).
var libDirs = []string{"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib", "/usr/local/lib"}

// compiledPrefix is where compiled programs are (a test moves it).
var compiledPrefix = "/bench/"

// scanCap bounds how much of one file is read (a program or a library).
const scanCap = 1 << 30

// clientRequests says why the counted program argv[0] cannot be counted as
// honest ("" when it can): it, or a library it needs, holds the
// client-request sequence. Only a compiled program (under /bench) is
// looked at; an interpreter is the toolchain image's.
func clientRequests(prog string) string {
	if !strings.HasPrefix(prog, compiledPrefix) {
		return ""
	}
	seen := map[string]bool{}
	queue := []string{prog}
	for len(queue) > 0 && len(seen) < 256 {
		path := queue[0]
		queue = queue[1:]
		if seen[path] || path == wire.ClockGatePath {
			continue
		}
		seen[path] = true
		at, arch, needed, err := scanFile(path)
		if err != nil {
			if path == prog {
				return fmt.Sprintf("the counted program %s could not be checked for Valgrind client requests: %v", prog, err)
			}
			continue // a library the loader would not find either
		}
		if at >= 0 {
			return fmt.Sprintf("not counted as honest: %s holds Valgrind's %s client-request sequence (at byte %d), so the program can steer its own count "+
				"(toggle collection, zero the counters); only halebench's clock gate may issue client requests", path, arch, at)
		}
		queue = append(queue, needed...)
	}
	return ""
}

// scanFile looks for the client-request sequence in the regular file at
// path (its links resolved, never into /proc, /sys or /dev; opened without
// blocking; read at most scanCap bytes) and, for an
// ELF object, resolves the libraries it needs. at is -1 when the sequence
// is not there; arch names whose sequence it is.
func scanFile(path string) (at int64, arch string, needed []string, err error) {
	// A library's name is often a link (libm.so.6); what it names must be
	// a file of the image, never a kernel's (/proc/kcore).
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return -1, "", nil, err
	}
	if engineMade(real) {
		return -1, "", nil, fmt.Errorf("%s is not a file of the image", real)
	}
	fd, err := syscall.Open(real, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return -1, "", nil, err
	}
	f := os.NewFile(uintptr(fd), path)
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return -1, "", nil, err
	}
	if !st.Mode().IsRegular() {
		return -1, "", nil, fmt.Errorf("not a regular file (%s)", st.Mode().Type())
	}
	if at, arch, err = findMagic(io.LimitReader(f, scanCap)); err != nil || at >= 0 {
		return at, arch, nil, err
	}
	ef, err := elf.NewFile(f)
	if err != nil {
		return -1, "", nil, nil // not ELF: nothing it needs
	}
	return -1, "", resolveNeeded(ef, filepath.Dir(path)), nil
}

// findMagic is the offset of the first client-request sequence in r, of
// any architecture (-1 when there is none), and whose it is.
func findMagic(r io.Reader) (int64, string, error) {
	buf := make([]byte, 1<<20)
	keep := 0
	for _, m := range clientRequestMagics {
		if len(m.magic)-1 > keep {
			keep = len(m.magic) - 1
		}
	}
	var base int64 // offset of buf[0]
	carry := 0
	for {
		n, err := io.ReadFull(r, buf[carry:])
		first, arch := -1, ""
		for _, m := range clientRequestMagics {
			if i := bytes.Index(buf[:carry+n], m.magic); i >= 0 && (first < 0 || i < first) {
				first, arch = i, m.arch
			}
		}
		if first >= 0 {
			return base + int64(first), arch, nil
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return -1, "", nil
		}
		if err != nil {
			return -1, "", err
		}
		total := carry + n
		copy(buf, buf[total-keep:total])
		base += int64(total - keep)
		carry = keep
	}
}

// resolveNeeded is where the loader would find each library ef needs: by
// its RPATH/RUNPATH ($ORIGIN is dir), then the usual folders.
func resolveNeeded(ef *elf.File, dir string) []string {
	libs, err := ef.ImportedLibraries()
	if err != nil {
		return nil
	}
	var search []string
	for _, tag := range []elf.DynTag{elf.DT_RUNPATH, elf.DT_RPATH} {
		if vals, err := ef.DynString(tag); err == nil {
			for _, v := range vals {
				for _, p := range strings.Split(v, ":") {
					search = append(search, strings.ReplaceAll(strings.ReplaceAll(p, "${ORIGIN}", dir), "$ORIGIN", dir))
				}
			}
		}
	}
	search = append(search, libDirs...)
	var out []string
	for _, lib := range libs {
		if strings.Contains(lib, "/") {
			out = append(out, lib)
			continue
		}
		for _, d := range search {
			p := filepath.Join(d, lib)
			if _, err := os.Stat(p); err == nil {
				out = append(out, p)
				break
			}
		}
	}
	return out
}
