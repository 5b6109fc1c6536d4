package main

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/judge"
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

// The arm64 lane on this x86-64 host: with QEMU's emulator registered, a C
// run --platform=linux/arm64 builds arm64 images through the engine's
// BuildKit (their programs aarch64 ELF), runs fn_call emulated (exit 0,
// no time gates, the report and the grid say emulated), records its count
// in an arm64 baselines file and gates the next run on it, the count equal;
// the checked-in amd64 baselines gate none of it.
func TestSlowArm64Emulated(t *testing.T) {
	enginetest.Slow(t)
	registerQEMU(t)
	eng := enginetest.Connect(t)
	dir := t.TempDir()
	arm := filepath.Join(dir, "baselines-arm64.json")
	common := []string{"--suite=../..", "--platform=linux/arm64", "--lang=c", "--subject=c", "--bench=fn_call", "--json"}
	code, out, errOut := run(t, nil, append([]string{"run", "--iters=2", "--baselines=" + arm, "--results=" + filepath.Join(dir, "timed")}, common...)...)
	if code != 0 {
		t.Fatalf("run --platform=linux/arm64: exit %d\n%s", code, errOut)
	}
	rep := armReport(t, out)
	if rep.Host.ImageArch != "arm64" || !strings.Contains(rep.Host.Emulated, "emulator") {
		t.Fatalf("host: image_arch %q, emulated %q", rep.Host.ImageArch, rep.Host.Emulated)
	}
	b := rep.bench(t, "fn_call")
	if b.Status != string(judge.Emulated) || !strings.Contains(b.SubjectResult.Detail, "time and memory not gated: emulated") {
		t.Fatalf("fn_call: %s (%s), want emulated", b.Status, b.SubjectResult.Detail)
	}
	ref := rep.BenchImages["c"].Ref
	img, ok, err := eng.Image(context.Background(), ref)
	if err != nil || !ok || img.Arch != "arm64" {
		t.Fatalf("bench image %s: found %v, architecture %q (%v)", ref, ok, img.Arch, err)
	}
	// e_machine, at byte 18 of an ELF header: 0xb7 0x00 is EM_AARCH64.
	machine, err := eng.Command(context.Background(), ref, "test-arm64", []string{"od", "-An", "-tx1", "-j18", "-N2", "/bench/bin/fn_call"})
	if err != nil || strings.TrimSpace(machine) != "b7 00" {
		t.Fatalf("/bench/bin/fn_call's ELF machine is %q, want b7 00 (aarch64): %v", machine, err)
	}
	code, grid, _ := run(t, nil, "show", stored(t, filepath.Join(dir, "timed")))
	if code != 0 || !strings.Contains(grid, "emulated (arm64 images)") {
		t.Fatalf("show: exit %d, the grid does not say emulated:\n%s", code, grid)
	}

	// The count, recorded in an arm64 file, then gating the next run.
	code, out, errOut = run(t, nil, append([]string{"run", "--count=only", "--update-baselines", "--baselines=" + arm, "--results=" + dir}, common...)...)
	if code != 0 {
		t.Fatalf("recording the arm64 count: exit %d\n%s", code, errOut)
	}
	recorded := armReport(t, out).bench(t, "fn_call").SubjectResult.Count.Ir
	f, err := judge.Load(arm)
	if err != nil || f.Arch != "arm64" || f.Benches["fn_call"] == nil || f.Benches["fn_call"].Instructions == 0 || f.Benches["fn_call"].CountTarget != "armv8-a" {
		t.Fatalf("the arm64 baselines: %+v (%v)", f, err)
	}
	code, out, errOut = run(t, nil, append([]string{"run", "--count=only", "--baselines=" + arm, "--results=" + dir}, common...)...)
	if code != 0 {
		t.Fatalf("gating on the arm64 count: exit %d\n%s", code, errOut)
	}
	again := armReport(t, out).bench(t, "fn_call")
	if again.CountVerdict != string(judge.OK) || again.SubjectResult.Count.Ir != recorded {
		t.Fatalf("fn_call counted %d then %d, verdict %s; want equal counts, ok", recorded, again.SubjectResult.Count.Ir, again.CountVerdict)
	}

	// The checked-in C baselines are amd64's: they gate no arm64 run.
	code, out, errOut = run(t, nil, append([]string{"run", "--count=only", "--baselines=../../baselines-c.json", "--results=" + dir}, common...)...)
	if code != 0 {
		t.Fatalf("an arm64 run on amd64 baselines: exit %d\n%s", code, errOut)
	}
	if b := armReport(t, out).bench(t, "fn_call"); b.Status != string(judge.NoBaseline) || b.SubjectResult.Detail != "no_baseline (recorded on amd64)" {
		t.Fatalf("fn_call on amd64 baselines: %s (%q)", b.Status, b.SubjectResult.Detail)
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
			Ir uint64 `json:"ir"`
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
