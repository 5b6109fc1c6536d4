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

// The sequence is found wherever it lies in a file, across the reader's
// buffer boundary too, and not where it is not.
func TestFindMagic(t *testing.T) {
	for _, at := range []int{0, 1<<20 - 5, 3<<20 + 7} {
		data := make([]byte, at+64)
		copy(data[at:], clientRequestMagic)
		if got, err := findMagic(bytes.NewReader(data)); err != nil || got != int64(at) {
			t.Errorf("at %d: found at %d (%v)", at, got, err)
		}
	}
	near := append([]byte{}, clientRequestMagic...)
	near[15] ^= 1
	if got, _ := findMagic(bytes.NewReader(append(make([]byte, 1<<20), near...))); got != -1 {
		t.Errorf("a near miss was found at %d", got)
	}
}

// A compiled program that issues a client request itself, or through a
// library it needs (found by its RUNPATH), is refused; the same program
// without one is not.
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
	old := compiledPrefix
	compiledPrefix = dir + "/"
	defer func() { compiledPrefix = old }()
	if why := clientRequests(filepath.Join(dir, "toggle")); !strings.Contains(why, "client-request sequence") {
		t.Errorf("a program with a client request: %q", why)
	}
	if why := clientRequests(filepath.Join(dir, "uses")); !strings.Contains(why, "libhidden.so holds") {
		t.Errorf("a program whose library issues a client request: %q", why)
	}
	if why := clientRequests(filepath.Join(dir, "honest")); why != "" {
		t.Errorf("an honest program was refused: %q", why)
	}
	if why := clientRequests("/usr/bin/python3"); why != "" {
		t.Errorf("an interpreter of the image was looked at: %q", why)
	}
}
