//go:build linux

package main

// A counted program that issues Valgrind's client requests
// (CALLGRIND_TOGGLE_COLLECT, CALLGRIND_ZERO_STATS: two inline instructions,
// no header needed) can hide its work from its count: a 55-million
// instruction region counted 40. For a bench that is its reviewed source's
// business; for a compiler under test (a pull request's head in ab and
// bisect) it is not, since its output is not reviewed and a count is the
// verdict. So before a compiled program (one under /bench) is counted, the
// sampler looks for the preamble of a client request in every file the
// loader may map into it (loader.go: all of /bench, the program's
// interpreter, every library it needs wherever the loader may find it),
// in each file as it lies on disk and as its segments lie in memory; only
// halebench's clock gate may hold one. A program that does, or one whose
// files cannot all be told, is not counted (count_failed, which never
// gates, saying why). Code that makes the sequence at run time (a JIT, a
// library it dlopens by a name it builds) is not seen: docs/security.md
// says so.

import (
	"bytes"
	"fmt"
	"io"
	"strings"
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

// benchRoot is where compiled programs are (a test moves it).
var benchRoot = "/bench"

// scanCap bounds how much of one file is read (a program or a library),
// and of the memory image of its segments; a larger file is refused.
const scanCap = 1 << 30

// clientRequests says why the counted program argv[0] cannot be counted as
// honest ("" when it can): a file the loader may map into it holds the
// client-request sequence, or what it may map cannot be told. Only a
// compiled program (under /bench) is looked at; an interpreter is the
// toolchain image's.
func clientRequests(prog string) string {
	if !strings.HasPrefix(prog, benchRoot+"/") {
		return ""
	}
	found, err := loadableMagic(prog)
	switch {
	case err != nil:
		return fmt.Sprintf("not counted as honest: what the loader may map into %s cannot be told (%v), so the program could steer its own count unseen", prog, err)
	case found.at < 0:
		return ""
	}
	where := fmt.Sprintf("at byte %d", found.at)
	if found.inMemory {
		where = fmt.Sprintf("at address %#x of its segments as the loader maps them, split in the file", found.at)
	}
	return fmt.Sprintf("not counted as honest: %s holds Valgrind's %s client-request sequence (%s), so the program can steer its own count "+
		"(toggle collection, zero the counters); only halebench's clock gate may issue client requests", found.path, found.arch, where)
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
