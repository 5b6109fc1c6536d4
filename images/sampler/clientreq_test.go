//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Each architecture's sequence is found wherever it lies in a file, across
// the reader's buffer boundary too, and not where it is not.
func TestFindMagic(t *testing.T) {
	for _, m := range clientRequestMagics {
		for _, at := range []int{0, 1<<20 - 5, 3<<20 + 7} {
			data := make([]byte, at+64)
			copy(data[at:], m.magic)
			if got, arch, err := findMagic(bytes.NewReader(data)); err != nil || got != int64(at) || arch != m.arch {
				t.Errorf("%s at %d: found at %d as %q (%v)", m.arch, at, got, arch, err)
			}
		}
		near := append([]byte{}, m.magic...)
		near[15] ^= 1
		if got, _, _ := findMagic(bytes.NewReader(append(make([]byte, 1<<20), near...))); got != -1 {
			t.Errorf("%s: a near miss was found at %d", m.arch, got)
		}
	}
}

// The aarch64 preamble is valgrind.h's four rotations of x12 (ror x12,
// x12, #n is EXTR Xd, Xn, Xm, #n with all three x12), encoded here from the
// instruction's fields: sf=1, N=1, opcode 0b100111, Rm, imms, Rn, Rd.
func TestARM64MagicIsValgrindsPreamble(t *testing.T) {
	var want []byte
	for _, n := range []uint32{3, 13, 51, 61} {
		const x12 = 12
		w := uint32(1)<<31 | 0b100111<<23 | 1<<22 | x12<<16 | n<<10 | x12<<5 | x12
		want = append(want, byte(w), byte(w>>8), byte(w>>16), byte(w>>24))
	}
	if !bytes.Equal(clientRequestMagicARM64, want) {
		t.Fatalf("the aarch64 preamble is % x, ror x12 by 3, 13, 51, 61 encodes as % x", clientRequestMagicARM64, want)
	}
}

// An aarch64 program holding the sequence (here a file of its bytes under
// the compiled folder, as an arm64 bench image's program is) is refused,
// the sequence's architecture named; one without is not; a file that says
// it is ELF but cannot be read as one cannot be told, so it is refused.
func TestClientRequestsARM64(t *testing.T) {
	dir := t.TempDir()
	prog := append([]byte("\x00ELF\x02\x01\x01\x00"), make([]byte, 4096)...)
	os.Mkdir(filepath.Join(dir, "a"), 0o755)
	honest := filepath.Join(dir, "a", "honest")
	os.WriteFile(honest, prog, 0o755)
	os.Mkdir(filepath.Join(dir, "b"), 0o755)
	steer := filepath.Join(dir, "b", "steer")
	os.WriteFile(steer, append(append(append([]byte{}, prog...), clientRequestMagicARM64...), 0x4a, 0x01, 0x0a, 0xaa), 0o755)
	old := benchRoot
	defer func() { benchRoot = old }()
	benchRoot = filepath.Join(dir, "b")
	if why := clientRequests(steer); !strings.Contains(why, "aarch64 client-request sequence") {
		t.Errorf("an aarch64 program with a client request: %q", why)
	}
	benchRoot = filepath.Join(dir, "a")
	if why := clientRequests(honest); why != "" {
		t.Errorf("an honest program was refused: %q", why)
	}
	broken := filepath.Join(dir, "a", "broken")
	os.WriteFile(broken, append([]byte("\x7fELF\x02\x01\x01\x00"), make([]byte, 4096)...), 0o755)
	if why := clientRequests(broken); !strings.Contains(why, "cannot be told") {
		t.Errorf("an ELF file that cannot be read: %q", why)
	}
}

// A compiled program that issues a client request itself, or through a
// library it needs (found by its RUNPATH), is refused; the same program
// without one is not while that library lies in /bench (any program there
// could name it), and is once it is gone; another program holding the
// sequence is passed over (ld.so maps no executable as a library).
func TestClientRequestsInAProgramOrItsLibrary(t *testing.T) {
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Fatalf("no C compiler to build the test programs: %v", err)
	}
	dir := t.TempDir()
	const req = `static void toggle(void) {
    unsigned long args[6] = {0x43540002UL, 0, 0, 0, 0, 0}, res = 0;
    __asm__ volatile("rolq $3, %%rdi\n\trolq $13, %%rdi\n\trolq $61, %%rdi\n\trolq $51, %%rdi\n\txchgq %%rbx, %%rbx"
                     : "=d"(res) : "a"(&args[0]), "0"(res) : "cc", "memory");
}
`
	files := map[string]string{
		"toggle.c": req + "int main(void) { toggle(); return 0; }\n",
		"honest.c": "int main(void) { return 0; }\n",
		"lib.c":    req + "void hidden(void) { toggle(); }\n",
		"uses.c":   "void hidden(void);\nint main(void) { hidden(); return 0; }\n",
	}
	for name, src := range files {
		os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644)
	}
	for _, args := range [][]string{
		{"-O1", "-o", "toggle", "toggle.c"}, {"-O1", "-o", "honest", "honest.c"},
		{"-O1", "-shared", "-fPIC", "-o", "libhidden.so", "lib.c"},
		{"-O1", "-o", "uses", "uses.c", "-L.", "-lhidden", "-Wl,-rpath,$ORIGIN"},
	} {
		cmd := exec.Command(cc, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %v: %v\n%s", cc, args, err, out)
		}
	}
	old := benchRoot
	benchRoot = dir
	defer func() { benchRoot = old }()
	if why := clientRequests(filepath.Join(dir, "toggle")); !strings.Contains(why, "client-request sequence") {
		t.Errorf("a program with a client request: %q", why)
	}
	if why := clientRequests(filepath.Join(dir, "uses")); !strings.Contains(why, "libhidden.so holds") {
		t.Errorf("a program whose library issues a client request: %q", why)
	}
	if why := clientRequests(filepath.Join(dir, "honest")); !strings.Contains(why, "libhidden.so holds") {
		t.Errorf("an honest program beside a library with the sequence: %q", why)
	}
	os.Remove(filepath.Join(dir, "libhidden.so"))
	if why := clientRequests(filepath.Join(dir, "honest")); why != "" {
		t.Errorf("an honest program beside another program with the sequence was refused: %q", why)
	}
	if why := clientRequests("/usr/bin/python3"); why != "" {
		t.Errorf("an interpreter of the image was looked at: %q", why)
	}
}
