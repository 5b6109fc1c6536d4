package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
)

// qemuBinfmt is where binfmt_misc keeps the aarch64 emulator's entry, and
// qemuStatic Debian's qemu-user-static emulator (`make deps` installs it).
const (
	binfmtDir  = "/proc/sys/fs/binfmt_misc"
	qemuEntry  = binfmtDir + "/qemu-aarch64"
	qemuStatic = "/usr/bin/qemu-aarch64-static"
	qemuConf   = "/usr/lib/binfmt.d/qemu-aarch64.conf"
)

// rootOrSkip skips a test that needs host root, saying why; under CI=true
// (.ci/run, which runs as root) it fails instead.
func rootOrSkip(t *testing.T, why string) {
	t.Helper()
	if os.Geteuid() == 0 {
		return
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true and not root: %s", why)
	}
	t.Skip(why)
}

// registerQEMU makes sure the kernel runs aarch64 programs with Debian's
// QEMU user-mode emulator, registered with the fix-binary flag (F): the
// kernel opens the emulator once, at registration, so it runs aarch64
// programs inside containers too, whose root filesystems do not hold it.
// Debian's package registers it without F (or not at all where
// binfmt_misc was not mounted), so the entry is made again from the
// package's own magic and mask. The entry is left registered: the host's
// own, like the package's.
func registerQEMU(t *testing.T) {
	t.Helper()
	rootOrSkip(t, "registers QEMU's user-mode emulator in binfmt_misc (mount, register): needs root, as .ci/run runs")
	if _, err := os.Stat(qemuStatic); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and no %s (make deps installs Debian's qemu-user-static): %v", qemuStatic, err)
		}
		t.Skipf("needs Debian's qemu-user-static (%s; `make deps` installs it as root): %v", qemuStatic, err)
	}
	if _, err := os.Stat(binfmtDir + "/register"); err != nil {
		if out, err := exec.Command("mount", "-t", "binfmt_misc", "binfmt_misc", binfmtDir).CombinedOutput(); err != nil {
			t.Fatalf("mounting binfmt_misc: %v\n%s", err, out)
		}
	}
	if entry, err := os.ReadFile(qemuEntry); err == nil {
		if strings.Contains(string(entry), "interpreter "+qemuStatic+"\n") && flagsHaveF(string(entry)) {
			return
		}
		if err := os.WriteFile(qemuEntry, []byte("-1"), 0o200); err != nil {
			t.Fatalf("removing the aarch64 binfmt_misc entry without the F flag: %v", err)
		}
	}
	conf, err := os.ReadFile(qemuConf)
	if err != nil {
		t.Fatalf("reading qemu-user-static's registration %s: %v", qemuConf, err)
	}
	// :name:type:offset:magic:mask:interpreter:flags; magic and mask are
	// escaped bytes (\xNN) and hold no colon.
	f := strings.Split(strings.TrimSpace(string(conf)), ":")
	if len(f) != 8 || f[1] != "qemu-aarch64" || f[2] != "M" {
		t.Fatalf("%s is not an aarch64 magic registration: %q", qemuConf, conf)
	}
	line := strings.Join([]string{"", "qemu-aarch64", "M", f[3], f[4], f[5], qemuStatic, "FPC"}, ":")
	if err := os.WriteFile(binfmtDir+"/register", []byte(line), 0o200); err != nil {
		t.Fatalf("registering %s: %v", line, err)
	}
	t.Logf("registered %s", line)
}

func flagsHaveF(entry string) bool {
	for _, l := range strings.Split(entry, "\n") {
		if fl, ok := strings.CutPrefix(l, "flags: "); ok {
			return strings.Contains(fl, "F")
		}
	}
	return false
}

// armSuite is a suite of two small C benches for the arm64 lane (small,
// since an emulated Valgrind counts some four microseconds an
// instruction): a loop of calls, and the same loop steering its own count
// with a client request in its timed region.
func armSuite(t *testing.T) string {
	t.Helper()
	const loop = `#include <stdint.h>
#include <stdio.h>
#include <time.h>
%s
static int64_t mono_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + (int64_t)ts.tv_nsec;
}
__attribute__((noinline)) static int64_t step(int64_t x) {
    __asm__ volatile("");
    return x * 2 + 1;
}
int main(void) {
    int64_t acc = 0;
    int64_t t0 = mono_ns();
    %s
    for (int64_t i = 0; i < 200000; i++) acc = step(i);
    __asm__ volatile("" : "+r"(acc) : : "memory");
    int64_t t1 = mono_ns();
    printf("elapsed_ns=%%lld\ncheck=acc:%%lld\n", (long long)(t1 - t0), (long long)acc);
    return 0;
}
`
	dir := t.TempDir()
	files := map[string]string{
		"benches/catalogue.json":    `{"categories": [{"name": "overhead", "title": "Overhead microbenches", "benches": ["arm_loop", "arm_steer"]}], "benches": {}}`,
		"benches/micro/arm_loop.c":  fmt.Sprintf(loop, "", ""),
		"benches/micro/arm_steer.c": fmt.Sprintf(loop, "#include <valgrind/callgrind.h>", "CALLGRIND_ZERO_STATS; /* steers its own count */"),
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// The arm64 lane on this x86-64 host: with QEMU's emulator registered, a C
// run --platform=linux/arm64 builds arm64 images through the engine's
// BuildKit (their programs aarch64 ELF), runs emulated (exit 0, no time
// gates, the report and the grid say emulated), records a count in an
// arm64 baselines file and gates the next run on it, the count equal;
// refuses to count a program that issues a client request in its timed
// region; and amd64 baselines gate none of it.
func TestSlowArm64Emulated(t *testing.T) {
	enginetest.Slow(t)
	registerQEMU(t)
	eng := enginetest.Connect(t)
	dir := t.TempDir()
	arm := filepath.Join(dir, "baselines-arm64.json")
	common := []string{"--suite=" + armSuite(t), "--platform=linux/arm64", "--lang=c", "--subject=c", "--json"}
	// the suite's own baselines.json, absent: a suite starts without one
	// (a --baselines path that does not exist is refused unless recorded)
	code, out, errOut := run(t, nil, append([]string{"run", "--iters=2", "--count=off", "--results=" + filepath.Join(dir, "timed")}, common...)...)
	if code != 0 {
		t.Fatalf("run --platform=linux/arm64: exit %d\n%s", code, errOut)
	}
	rep := armReport(t, out)
	if rep.Host.ImageArch != "arm64" || !strings.Contains(rep.Host.Emulated, "emulator") {
		t.Fatalf("host: image_arch %q, emulated %q", rep.Host.ImageArch, rep.Host.Emulated)
	}
	b := rep.bench(t, "arm_loop")
	if b.Status != string(outcome.Emulated) || !strings.Contains(b.SubjectResult.Detail, "time and memory not gated: emulated") {
		t.Fatalf("arm_loop: %s (%s), want emulated", b.Status, b.SubjectResult.Detail)
	}
	ref := rep.BenchImages["c"].Ref
	img, ok, err := eng.Image(context.Background(), ref)
	if err != nil || !ok || img.Arch != "arm64" {
		t.Fatalf("bench image %s: found %v, architecture %q (%v)", ref, ok, img.Arch, err)
	}
	// e_machine, at byte 18 of an ELF header: 0xb7 0x00 is EM_AARCH64.
	machine, err := eng.Command(context.Background(), ref, "test-arm64", []string{"od", "-An", "-tx1", "-j18", "-N2", "/bench/bin/arm_loop"})
	if err != nil || strings.TrimSpace(machine) != "b7 00" {
		t.Fatalf("/bench/bin/arm_loop's ELF machine is %q, want b7 00 (aarch64): %v", machine, err)
	}
	code, grid, _ := run(t, nil, "show", stored(t, filepath.Join(dir, "timed")))
	if code != 0 || !strings.Contains(grid, "emulated (arm64 images)") {
		t.Fatalf("show: exit %d, the grid does not say emulated:\n%s", code, grid)
	}

	// The count, recorded in an arm64 file, then gating the next run; the
	// program that steers its own count is refused, saying why.
	code, out, errOut = run(t, nil, append([]string{"run", "--count=only", "--update-baselines", "--baselines=" + arm, "--results=" + dir}, common...)...)
	if code != 0 {
		t.Fatalf("recording the arm64 count: exit %d\n%s", code, errOut)
	}
	first := armReport(t, out)
	recorded := first.bench(t, "arm_loop").SubjectResult.Count.Ir
	s := first.bench(t, "arm_steer")
	why := s.SubjectResult.Count.Reason
	for _, r := range s.SubjectResult.Count.Runs {
		why += " " + r.Detail
	}
	if s.CountVerdict != string(outcome.CountFailed) || !strings.Contains(why, "aarch64 client-request sequence") {
		t.Fatalf("arm_steer's count: %s (%q), want count_failed naming the aarch64 client request", s.CountVerdict, why)
	}
	f, err := judge.Load(arm)
	if err != nil || f.Arch != "arm64" || f.Benches["arm_loop"] == nil || f.Benches["arm_loop"].Instructions == 0 || f.Benches["arm_loop"].CountTarget != "armv8-a" {
		t.Fatalf("the arm64 baselines: %+v (%v)", f, err)
	}
	code, out, errOut = run(t, nil, append([]string{"run", "--count=only", "--bench=arm_loop", "--baselines=" + arm, "--results=" + dir}, common...)...)
	if code != 0 {
		t.Fatalf("gating on the arm64 count: exit %d\n%s", code, errOut)
	}
	again := armReport(t, out).bench(t, "arm_loop")
	if again.CountVerdict != string(outcome.OK) || again.SubjectResult.Count.Ir != recorded {
		t.Fatalf("arm_loop counted %d then %d, verdict %s; want equal counts, ok", recorded, again.SubjectResult.Count.Ir, again.CountVerdict)
	}

	// A file recorded on amd64 gates no arm64 run.
	amd := filepath.Join(dir, "baselines-amd64.json")
	os.WriteFile(amd, []byte(`{"updated_at": "2026-01-01T00:00:00Z", "subject": "c", "benches": {"arm_loop": {"kind": "micro", "elapsed_ns": 1, "maxrss_kb": 1, "tolerance": 0.3}}}`), 0o644)
	code, out, errOut = run(t, nil, append([]string{"run", "--iters=1", "--count=off", "--bench=arm_loop", "--baselines=" + amd, "--results=" + dir}, common...)...)
	if code != 0 {
		t.Fatalf("an arm64 run on amd64 baselines: exit %d\n%s", code, errOut)
	}
	if b := armReport(t, out).bench(t, "arm_loop"); b.Status != string(outcome.Emulated) || !strings.Contains(errOut, "recorded on amd64") {
		t.Fatalf("arm_loop on amd64 baselines: %s (%q)\n%s", b.Status, b.SubjectResult.Detail, errOut)
	}
}

type armRun struct {
	Host struct {
		ImageArch string `json:"image_arch"`
		Emulated  string `json:"emulated"`
	} `json:"host"`
	BenchImages map[string]struct {
		Ref string `json:"reference"`
	} `json:"bench_images"`
	Benches []armBench `json:"benches"`
}

type armBench struct {
	Name          string `json:"name"`
	Status        string `json:"status"`
	CountVerdict  string `json:"count_verdict"`
	SubjectResult struct {
		Detail string `json:"detail"`
		Count  struct {
			Ir     uint64 `json:"ir"`
			Reason string `json:"reason"`
			Runs   []struct {
				Detail string `json:"detail"`
			} `json:"runs"`
		} `json:"count"`
	} `json:"subject_result"`
}

func armReport(t *testing.T, out string) armRun {
	t.Helper()
	var r armRun
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("the report: %v\n%s", err, out)
	}
	return r
}

func (r armRun) bench(t *testing.T, name string) armBench {
	t.Helper()
	for _, b := range r.Benches {
		if b.Name == name {
			return b
		}
	}
	t.Fatalf("no bench %s in the report", name)
	return armBench{}
}

// stored is the one run report under dir.
func stored(t *testing.T, dir string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, "run-*.json"))
	if len(m) != 1 {
		t.Fatalf("want one run report under %s, found %v", dir, m)
	}
	return m[0]
}
