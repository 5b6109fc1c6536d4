package runner_test

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/judge"
)

// countHostileHale is a given hale whose timed builds are honest (the .hl
// file compiled as C) and whose counted builds (--target-cpu) are its
// own, by unit, each a way a count was made to lie: a library holding a
// client request named by a relative DT_NEEDED, found in a glibc-hwcaps
// subfolder, behind $PLATFORM in RUNPATH, as the 300th DT_NEEDED; an
// interpreter of its own; the client-request preamble split over two
// segments adjacent in memory; a build that skips the work; one that
// reads the clock before the work and then does it (early); a forged
// summary on Valgrind's log socket then a child's flood of stderr; a look
// for Valgrind's gdbserver FIFOs. Its libraries lie in /bench/bin/UNIT.d,
// the one folder that leaves the compile stage.
const countHostileHale = `#!/bin/sh
if [ "$1" = --version ]; then echo "hale 0.17.0 (counted-hostile stand-in)"; exit 0; fi
src=$2; out=${src%.hl}; unit=$(basename "$out")
[ "$3" = --target-cpu ] || exec clang -O1 -x c "$src" -o "$out"
S=/opt/standin; d=/bench/bin/$unit.d
mkdir -p "$d"
lib() { clang -O1 -shared -fPIC -o "$2" "$S/$1.c"; }
link() { clang -O1 -x c "$src" -x none -o "$out" -Wl,--no-as-needed "$@"; }
case $unit in
rel) lib evil "$d/libevil.so" && cd / && link "bench/bin/rel.d/libevil.so" ;;
hwcaps) lib foo "$d/libfoo.so" && mkdir -p "$d/glibc-hwcaps/x86-64-v3" && lib evil "$d/glibc-hwcaps/x86-64-v3/libfoo.so" &&
        link -L"$d" -lfoo -Wl,-rpath,"$d" ;;
platform) lib foo "$d/libfoo.so" && mkdir -p "$d/x86_64" && lib evil "$d/x86_64/libfoo.so" && link -L"$d" -lfoo -Wl,-rpath,"$d/\$PLATFORM" ;;
many) lib foo "$d/clean.so" && args= && i=0 &&
      while [ $i -lt 300 ]; do n=$(printf 'libm%03d.so' $i); cp "$d/clean.so" "$d/$n"; args="$args -l:$n"; i=$((i+1)); done &&
      rm "$d/clean.so" && lib evil "$d/libm299.so" && link -L"$d" -Wl,-rpath,"$d" $args ;;
interp) cp /lib64/ld-linux-x86-64.so.2 "$d/ld.so" && link -Wl,--dynamic-linker="$d/ld.so" ;;
split) base64 -d "$S/split.b64" >"$out" && chmod 755 "$out" ;;
skip|early|sock|vgdb) clang -O1 -x c "$S/$unit.c" -o "$out" ;;
*) link ;;
esac
`

// The sources the stand-in's counted builds use.
var countHostileFiles = map[string]string{
	"foo.c":  "int foo(void) { return 1; }\n",
	"evil.c": "void toggle(void) { __asm__ volatile(\"rolq $3, %%rdi\\n\\trolq $13, %%rdi\\n\\trolq $61, %%rdi\\n\\trolq $51, %%rdi\\n\\txchgq %%rbx, %%rbx\" ::: \"cc\", \"memory\"); }\n",
	// skip reads the clock twice and prints without doing the work.
	"skip.c": "#include <stdio.h>\n#include <time.h>\nint main(void) { struct timespec a, b; clock_gettime(CLOCK_MONOTONIC, &a); clock_gettime(CLOCK_MONOTONIC, &b);\n" +
		"printf(\"elapsed_ns=%ld\\ncheck=ok:0\\n\", (long)(b.tv_nsec - a.tv_nsec)); return 0; }\n",
	// early reads the clock twice, then does the honest build's work and
	// prints its check=: no client request, the same output, a region of
	// a few instructions.
	"early.c": `#include <stdio.h>
#include <time.h>
int main(void) {
    struct timespec a, b;
    volatile unsigned long x = 0;
    clock_gettime(CLOCK_MONOTONIC, &a);
    clock_gettime(CLOCK_MONOTONIC, &b);
    for (unsigned long i = 0; i < 5000000; i++) x += i;
    printf("elapsed_ns=%ld\ncheck=ok:1\n", (b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec));
    return 0;
}
`,
	// vgdb does the work unless it finds Valgrind's gdbserver FIFOs, through
	// which it could zero its count.
	"vgdb.c": `#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
int main(void) {
    int n = 0;
    DIR *d = opendir("/tmp");
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) n += strncmp(e->d_name, "vgdb-pipe", 9) == 0;
    if (n > 0) { printf("elapsed_ns=1\ncheck=vgdb-fifos:%d\n", n); return 0; }
    struct timespec a, b;
    volatile unsigned long x = 0;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (unsigned long i = 0; i < 5000000; i++) x += i;
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("elapsed_ns=%ld\ncheck=ok:1\n", (b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec));
    return 0;
}
`,
	// sock is sockBench, then a child that floods stderr once Valgrind has
	// written its own summary there.
	"sock.c": strings.Replace(sockBench, "    return 0;\n}\n", `    if (fork() == 0) {
        sleep(1);
        static char flood[65536];
        memset(flood, 'x', sizeof flood);
        for (int i = 0; i < 8; i++) write(2, flood, sizeof flood);
        _exit(0);
    }
    return 0;
}
`, 1),
}

// An honest loop's count, then each of the counted builds above, in two
// bench images of the stand-in (the libraries' units apart: a library
// holding a client request anywhere in /bench refuses every unit there):
// none is counted ok, each says why in a status that does not gate; the
// gdbserver one finds no FIFO and counts as the honest loop does. The
// early one is counted ok by its region, a few instructions: its witness,
// the whole process's count, saw the work, and the judge does not take
// its region (unwitnessed), while the honest loop's stands.
func TestCountedBuildsCannotLie(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Minute)
	defer cancel()
	k := newGivenKit(t, ctx, "counted-hostile")
	files := map[string]string{"split.b64": base64.StdEncoding.EncodeToString(splitProgram())}
	copyLine := "COPY split.b64"
	for name, text := range countHostileFiles {
		files[name] = text
		copyLine += " " + name
	}
	given := k.standInHale("counted-hostile", countHostileHale, copyLine+" /opt/standin/\n", files)
	units := func(names ...string) map[string]string {
		m := map[string]string{}
		for _, n := range names {
			m[n] = honestBench
		}
		return m
	}
	progs := k.mustBenchImage("hale", given, units("honest", "interp", "split", "skip", "early", "sock", "vgdb"))
	libs := k.mustBenchImage("hale", given, units("rel", "hwcaps", "platform", "many"))
	priv := k.privilege(k.cToolchain())
	var honestNs int64 // the honest timed build's region, as its timed sample printed it
	count := func(bi image.BenchImage, unit string) wire.Count {
		o := runUnit(t, k.eng, bi, priv, k.runID, image.TrustedArg(bi.Trusted), unit, 1)
		if len(o.Counts) != 1 {
			t.Fatalf("%s: %d counts (%s %q)", unit, len(o.Counts), o.Status, o.Detail)
		}
		if unit == "honest" && len(o.Samples) > 0 {
			honestNs = o.Samples[len(o.Samples)-1].Fig(wire.ElapsedNs)
		}
		t.Logf("%s: %s Ir %d process %d %q", unit, o.Counts[0].Status, o.Counts[0].Ir, o.Counts[0].Fig(wire.InstructionsProcess), o.Counts[0].Detail)
		return o.Counts[0]
	}
	// verdict is the judge's witness over a unit's count (taken twice, as
	// the determinism rule wants: it is deterministic) and the honest
	// timed build's region.
	verdict := func(c wire.Count) judge.WitnessCheck {
		return judge.InstrWitness(judge.Summarize(judge.CountCell{Asked: true, Runs: []wire.Count{c, c}}), honestNs, nil)
	}
	honest := count(progs, "honest")
	if honest.Status != wire.CountOK || honest.Ir < 5000000 || honestNs <= 0 {
		t.Fatalf("the honest loop's count: %+v (timed region %d ns)", honest, honestNs)
	}
	if p := honest.Fig(wire.InstructionsProcess); p < int64(honest.Ir) {
		t.Errorf("the honest loop's witness: process %d, region %d", p, honest.Ir)
	}
	if w := verdict(honest); w.Why != "" {
		t.Errorf("the honest loop was flagged by its witness: %s", w.Why)
	}
	early := count(progs, "early")
	if early.Status != wire.CountOK || early.Ir >= honest.Ir || early.Fig(wire.InstructionsProcess) < int64(honest.Ir) {
		t.Errorf("early: %s Ir %d process %d (honest region %d), want ok, under the honest region, its process over it", early.Status, early.Ir, early.Fig(wire.InstructionsProcess), honest.Ir)
	}
	if w := verdict(early); !strings.Contains(w.Why, "fewer than any CPU retires") {
		t.Errorf("early, %d instructions over the honest %d ns: the judge said %+v, want unwitnessed", early.Ir, honestNs, w)
	}
	for _, c := range []struct {
		bi         image.BenchImage
		unit, want string
	}{
		{libs, "rel", "rel.d/libevil.so holds"},
		{libs, "hwcaps", "hwcaps.d/glibc-hwcaps/x86-64-v3/libfoo.so holds"},
		{libs, "platform", "platform.d/x86_64/libfoo.so holds"},
		{libs, "many", "many.d/libm299.so holds"},
		{progs, "interp", "a program interpreter of its own"},
		{progs, "split", "of its segments as the loader maps them"},
		{progs, "skip", "what was counted is not the work that was timed"},
		{progs, "sock", "log socket was cut"},
	} {
		got := count(c.bi, c.unit)
		if got.Status == wire.CountOK || !strings.Contains(got.Detail, c.want) {
			t.Errorf("%s: %s Ir %d (honest %d) %q, want count_failed saying %q", c.unit, got.Status, got.Ir, honest.Ir, got.Detail, c.want)
		}
	}
	if got := count(progs, "vgdb"); got.Status != wire.CountOK || got.Ir < honest.Ir*9/10 {
		t.Errorf("the program looking for Valgrind's gdbserver FIFOs: %+v (honest Ir %d)", got, honest.Ir)
	}
}

// splitProgram is a static x86-64 program of two PT_LOAD segments, adjacent
// in memory (0x400000 and 0x401000) but two pages apart in the file, whose
// code issues CALLGRIND_TOGGLE_COLLECT with the preamble split across them
// (its first 8 bytes end the first segment), then prints a bench's two
// lines and exits.
func splitProgram() []byte {
	const page, base = 0x1000, 0x400000
	f := make([]byte, 4*page)
	le := binary.LittleEndian
	copy(f, "\x7fELF\x02\x01\x01")
	for i, v := range []uint16{2, 62} { // ET_EXEC, EM_X86_64
		le.PutUint16(f[16+2*i:], v)
	}
	le.PutUint32(f[20:], 1)
	magic := []byte{0x48, 0xc1, 0xc7, 0x03, 0x48, 0xc1, 0xc7, 0x0d, 0x48, 0xc1, 0xc7, 0x3d, 0x48, 0xc1, 0xc7, 0x33}
	msg := "elapsed_ns=1\ncheck=ok:1\n"
	// Before the split: lea rax, [rip+args]; xor edx, edx; 8 bytes of magic.
	entry := uint64(base + page - 7 - 2 - 8)
	second := []byte{}
	second = append(second, magic[8:]...)
	second = append(second, 0x48, 0x87, 0xdb) // xchg rbx, rbx
	second = append(second, 0xb8, 1, 0, 0, 0) // mov eax, 1 (write)
	second = append(second, 0xbf, 1, 0, 0, 0) // mov edi, 1
	leaMsg := len(second)                     // lea rsi, [rip+msg]
	second = append(second, 0x48, 0x8d, 0x35, 0, 0, 0, 0)
	second = append(second, 0xba, byte(len(msg)), 0, 0, 0) // mov edx, len
	second = append(second, 0x0f, 0x05)                    // syscall
	second = append(second, 0xb8, 231, 0, 0, 0)            // mov eax, 231 (exit_group)
	second = append(second, 0x31, 0xff, 0x0f, 0x05)        // xor edi, edi; syscall
	argsAt := len(second)
	args := make([]byte, 48)
	le.PutUint64(args, 0x43540002)
	second = append(second, args...)
	msgAt := len(second)
	second = append(second, msg...)
	le.PutUint32(second[leaMsg+3:], uint32(msgAt-(leaMsg+7)))
	first := []byte{0x48, 0x8d, 0x05, 0, 0, 0, 0, 0x31, 0xd2}
	first = append(first, magic[:8]...)
	le.PutUint32(first[3:], uint32(len(first)-7+argsAt)) // from the lea's end to args in the second segment
	copy(f[page-len(first):], first)
	copy(f[3*page:], second)
	le.PutUint64(f[24:], entry)
	le.PutUint64(f[32:], 64)
	for i, v := range []uint16{64, 56, 2} { // header size, program header size, count
		le.PutUint16(f[52+2*i:], v)
	}
	for i, off := range []uint64{0, 3 * page} {
		ph := f[64+56*i:]
		le.PutUint32(ph, 1)     // PT_LOAD
		le.PutUint32(ph[4:], 5) // R+X
		for j, v := range []uint64{off, base + uint64(i)*page, base + uint64(i)*page, page, page, page} {
			le.PutUint64(ph[8+8*j:], v)
		}
	}
	return f
}
