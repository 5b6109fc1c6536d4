//go:build linux

package main

import (
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// requestC is a client request in C (CALLGRIND_TOGGLE_COLLECT, inline).
const requestC = `static void toggle(void) {
    unsigned long args[6] = {0x43540002UL, 0, 0, 0, 0, 0}, res = 0;
    __asm__ volatile("rolq $3, %%rdi\n\trolq $13, %%rdi\n\trolq $61, %%rdi\n\trolq $51, %%rdi\n\txchgq %%rbx, %%rbx"
                     : "=d"(res) : "a"(&args[0]), "0"(res) : "cc", "memory");
}
`

// ccIn runs the host's C compiler in dir, or fails the test.
func ccIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cc, err := exec.LookPath("cc")
	if err != nil {
		t.Fatalf("no C compiler to build the test programs: %v", err)
	}
	cmd := exec.Command(cc, args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("cc %v: %v\n%s", args, err, out)
	}
}

// hostileLayout is a test's /bench (bench) and a folder beside it
// (outside) that only the loader's own resolution reaches, with a clean
// library libfoo.so (no soname, so a program records the name it was
// linked with) and one holding a client request, libevil.so.
func hostileLayout(t *testing.T) (bench, outside string) {
	t.Helper()
	root := t.TempDir()
	bench, outside = filepath.Join(root, "bench"), filepath.Join(root, "outside")
	for _, d := range []string{bench, outside} {
		os.Mkdir(d, 0o755)
	}
	os.WriteFile(filepath.Join(outside, "foo.c"), []byte("int foo(void) { return 1; }\n"), 0o644)
	os.WriteFile(filepath.Join(outside, "evil.c"), []byte(requestC+"int foo(void) { toggle(); return 1; }\n"), 0o644)
	os.WriteFile(filepath.Join(bench, "main.c"), []byte("int foo(void);\nint main(void) { return foo(); }\n"), 0o644)
	ccIn(t, outside, "-O1", "-shared", "-fPIC", "-o", "libfoo.so", "foo.c")
	ccIn(t, outside, "-O1", "-shared", "-fPIC", "-o", "libevil.so", "evil.c")
	old := benchRoot
	benchRoot = bench
	t.Cleanup(func() { benchRoot = old })
	return bench, outside
}

// copyFile copies src to dst, making dst's folder.
func copyFile(t *testing.T, src, dst string) {
	t.Helper()
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(dst), 0o755)
	if err := os.WriteFile(dst, b, 0o755); err != nil {
		t.Fatal(err)
	}
}

// Each way a counted build hid a client request from the scan, rebuilt
// here with the host's compiler, the hostile library outside /bench where
// only the loader's resolution finds it: each is refused, naming the
// library or saying why it cannot be told; the same program with the clean
// library is not.
func TestScanFindsWhatTheLoaderMaps(t *testing.T) {
	bench, outside := hostileLayout(t)
	evil, foo := filepath.Join(outside, "libevil.so"), filepath.Join(outside, "libfoo.so")
	rel := strings.TrimPrefix(evil, "/") // as the run's folder (/) opens it
	// 2: a copy under glibc-hwcaps/x86-64-v3 beside a clean one.
	hw := filepath.Join(outside, "hw")
	copyFile(t, foo, filepath.Join(hw, "libfoo.so"))
	copyFile(t, evil, filepath.Join(hw, "glibc-hwcaps", "x86-64-v3", "libfoo.so"))
	// 3: $PLATFORM and $LIB in RUNPATH.
	copyFile(t, evil, filepath.Join(outside, "plat", "x86_64", "libfoo.so"))
	copyFile(t, evil, filepath.Join(outside, "lib", "x86_64-linux-gnu", "libfoo.so"))
	// 4: 300 needed libraries, the last the hostile one.
	many := filepath.Join(outside, "many")
	var manyArgs []string
	for i := 0; i < 300; i++ {
		name := fmt.Sprintf("libm%03d.so", i)
		src := foo
		if i == 299 {
			src = evil
		}
		copyFile(t, src, filepath.Join(many, name))
		manyArgs = append(manyArgs, "-l:"+name)
	}
	link := func(out string, args ...string) string {
		ccIn(t, bench, append([]string{"-O1", "-o", out, "main.c"}, args...)...)
		return filepath.Join(bench, out)
	}
	// 1: linked from / by a relative path, which ld records as the name.
	ccIn(t, "/", "-O1", "-o", filepath.Join(bench, "rel"), filepath.Join(bench, "main.c"), rel)
	cases := []struct{ name, prog, want string }{
		{"relative DT_NEEDED", filepath.Join(bench, "rel"), "libevil.so holds"},
		{"hwcaps", link("hwcaps", "-L"+hw, "-lfoo", "-Wl,-rpath,"+hw), "glibc-hwcaps/x86-64-v3/libfoo.so holds"},
		{"$PLATFORM", link("platform", "-L"+foo[:len(foo)-len("/libfoo.so")], "-lfoo", "-Wl,-rpath,"+outside+"/plat/$PLATFORM"), "plat/x86_64/libfoo.so holds"},
		{"$LIB", link("lib", "-L"+outside, "-lfoo", "-Wl,-rpath,"+outside+"/$LIB"), "x86_64-linux-gnu/libfoo.so holds"},
		{"300 DT_NEEDED", link("many", append([]string{"-L" + many, "-Wl,--no-as-needed", "-Wl,-rpath," + many}, manyArgs...)...), "libm299.so holds"},
		{"own PT_INTERP", link("interp", "-L"+outside, "-lfoo", "-Wl,-rpath,"+outside, "-Wl,--dynamic-linker="+filepath.Join(outside, "ld.so")), "a program interpreter of its own"},
		{"unknown token", link("token", "-L"+outside, "-lfoo", "-Wl,-rpath,"+outside+"/$WHAT"), "the token $WHAT"},
	}
	for _, c := range cases {
		if why := clientRequests(c.prog); !strings.Contains(why, c.want) {
			t.Errorf("%s: %q, want it refused with %q", c.name, why, c.want)
		}
	}
	honest := link("honest", "-L"+outside, "-lfoo", "-Wl,-rpath,"+outside)
	if why := clientRequests(honest); why != "" {
		t.Errorf("the program with the clean library was refused: %q", why)
	}
}

// A file whose two PT_LOAD segments are adjacent in memory but not in the
// file, the client-request sequence split across them: refused, naming an
// address; the same halves in segments apart in memory are not.
func TestScanLaysOutSegments(t *testing.T) {
	dir := t.TempDir()
	old := benchRoot
	benchRoot = dir
	defer func() { benchRoot = old }()
	for _, c := range []struct {
		name    string
		gap     uint64 // between the segments in memory
		refused bool
	}{{"adjacent", 0, true}, {"apart", 0x1000, false}} {
		path := filepath.Join(dir, c.name)
		os.WriteFile(path, splitELF(clientRequestMagic, c.gap), 0o755)
		why := clientRequests(path)
		if c.refused != strings.Contains(why, "at address 0x400ff8 of its segments") {
			t.Errorf("%s: %q", c.name, why)
		}
		os.Remove(path)
	}
}

// splitELF is an ELF64 executable of two PT_LOAD segments: the first page
// at 0x400000 (file offset 0) ends with the first half of magic, the
// second, at 0x401000+gap from file offset 0x3000 (two pages further on
// in the file), starts with the rest.
func splitELF(magic []byte, gap uint64) []byte {
	const page = 0x1000
	f := make([]byte, 4*page)
	le := binary.LittleEndian
	copy(f, "\x7fELF\x02\x01\x01")
	le.PutUint16(f[16:], 2)  // ET_EXEC
	le.PutUint16(f[18:], 62) // EM_X86_64
	le.PutUint32(f[20:], 1)  // EV_CURRENT
	le.PutUint64(f[24:], 0x400078)
	le.PutUint64(f[32:], 64) // program headers
	le.PutUint16(f[52:], 64) // header size
	le.PutUint16(f[54:], 56) // program header size
	le.PutUint16(f[56:], 2)  // two of them
	half := len(magic) / 2
	for i, seg := range []struct{ off, vaddr uint64 }{{0, 0x400000}, {3 * page, 0x401000 + gap}} {
		ph := f[64+56*i:]
		le.PutUint32(ph[0:], 1) // PT_LOAD
		le.PutUint32(ph[4:], 5) // R+X
		le.PutUint64(ph[8:], seg.off)
		le.PutUint64(ph[16:], seg.vaddr)
		le.PutUint64(ph[24:], seg.vaddr)
		le.PutUint64(ph[32:], page)
		le.PutUint64(ph[40:], page)
		le.PutUint64(ph[48:], page)
	}
	copy(f[page-half:], magic[:half])
	copy(f[3*page:], magic[half:])
	return f
}
