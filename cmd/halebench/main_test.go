package main

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/ab"
	"github.com/hale-lang/halebench/orchestrator/bisect"
	"github.com/hale-lang/halebench/orchestrator/judge"
)

// bin is the halebench binary the tests run, built once; binDir holds it
// and whatever else TestMain removes at the end (the fake's binary and
// cache folder, see fakeRun).
var bin, binDir string

// notCI is the binary's environment as on a workstation, whatever the
// test's own: under CI=true (.ci/run) a run without hale exits 3, and the
// tests that mean that say CI=true themselves (a later entry wins).
const notCI = "CI=false"

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "halebench-cli-")
	if err != nil {
		panic(err)
	}
	binDir, bin = dir, filepath.Join(dir, "halebench")
	// Hale by default must never reach the network from a test: the
	// official repository is a closed loopback port here.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	os.Setenv("HALEBENCH_HALE_URL", "http://"+l.Addr().String()+"/hale-lang/hale")
	l.Close()
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		panic(string(out))
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func run(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	return runBin(t, bin, env, args...)
}

// runBin runs the binary at path with args, in the test's environment as
// on a workstation (notCI) plus env, and gives its exit code and output.
func runBin(t *testing.T, path string, env []string, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(path, args...)
	cmd.Env = append(append(os.Environ(), notCI), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String(), errb.String()
}

func TestHelpAndUsageErrors(t *testing.T) {
	code, out, _ := run(t, nil, "--help")
	if code != 0 || !strings.Contains(out, "130  interrupted") || !strings.Contains(out, "1    the subject regressed") {
		t.Fatalf("help: exit %d\n%s", code, out)
	}
	if code, _, errOut := run(t, nil, "run", "--no-such-flag"); code != 2 || !strings.Contains(errOut, "no-such-flag") {
		t.Fatalf("unknown flag: exit %d, %s", code, errOut)
	}
	if code, _, errOut := run(t, nil, "frobnicate"); code != 2 || !strings.Contains(errOut, `unknown verb "frobnicate"`) {
		t.Fatalf("unknown verb: exit %d, %s", code, errOut)
	}
	if code, _, _ := run(t, nil, "run", "--help"); code != 0 {
		t.Fatalf("run --help: exit %d", code)
	}
	// Help of help is the help: it once recursed into a stack overflow.
	for _, args := range [][]string{{"help", "help"}, {"help", "-h"}, {"--help", "--help"}, {"-h", "help"}, {"help", "--help"}} {
		code, out, errOut := run(t, nil, args...)
		if code != 0 || !strings.HasPrefix(out, "halebench — ") || !strings.Contains(out, "Exit codes:") || errOut != "" {
			t.Errorf("%v: exit %d, stdout %.60q, stderr %.200q", args, code, out, errOut)
		}
	}
	if code, out, _ := run(t, nil, "help", "run"); code != 0 || !strings.HasPrefix(out, "Usage: halebench run") {
		t.Errorf("help run: exit %d, %.60q", code, out)
	}
	if code, _, errOut := run(t, nil, "help", "frobnicate"); code != 2 || !strings.Contains(errOut, `unknown verb "frobnicate"`) {
		t.Errorf("help frobnicate: exit %d, %s", code, errOut)
	}
}

// The top-level help names every exit code and what gives it.
func TestHelpExitCodes(t *testing.T) {
	for _, want := range []string{"instruction count", "ab --fail-on-slower", "3    the subject was not measured", "CI=true"} {
		if !strings.Contains(usage, want) {
			t.Errorf("the usage's exit codes lack %q", want)
		}
	}
}

// The subject not measured is exit 3, whichever verb says so; what wraps
// it does not change that.
func TestExitCodeUnmeasured(t *testing.T) {
	for _, c := range []struct {
		name string
		err  error
		want int
	}{
		{"run in CI", fmt.Errorf("hale: unavailable (x); in CI ...: %w", judge.ErrUnmeasured), 3},
		{"ab's side", &ab.ErrSide{Side: "B", Err: fmt.Errorf("hale is build_failed: y: %w", judge.ErrUnmeasured)}, 3},
		{"bisect's end", fmt.Errorf("--good=abc: %w: z", bisect.ErrEndNotBuilt), 3},
		{"ab's side, not the subject", &ab.ErrSide{Side: "A", Err: errors.New("engine gone")}, 2},
		{"a regression", judge.ErrRegression, 1},
	} {
		if got := exitCode(c.err); got != c.want {
			t.Errorf("%s: exit %d, want %d", c.name, got, c.want)
		}
	}
}

func TestEngineUnreachable(t *testing.T) {
	start := time.Now()
	code, _, errOut := run(t, []string{"DOCKER_HOST=unix:///tmp/halebench-no-such.sock"}, "run", "--suite=../../orchestrator/harness/testdata/suite")
	if code != 2 || !strings.Contains(errOut, "engine unreachable at unix:///tmp/halebench-no-such.sock") || !strings.Contains(errOut, "is the daemon running") {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Fatalf("took %s to give up", d)
	}
}

func TestCorruptBaselinesExit2Untouched(t *testing.T) {
	p := filepath.Join(t.TempDir(), "baselines.json")
	bad := []byte("{\"benches\": {\"count\": {\"elapsed_ns\": \"soon\"}}}")
	os.WriteFile(p, bad, 0o644)
	code, _, errOut := run(t, nil, "run", "--suite=../../orchestrator/harness/testdata/suite", "--baselines="+p, "--update-baselines")
	if code != 2 || !strings.Contains(errOut, p) || !strings.Contains(errOut, "elapsed_ns") {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	if got, _ := os.ReadFile(p); !bytes.Equal(got, bad) {
		t.Fatal("the corrupt file was changed")
	}
}

// Bad input is reported as itself, with exit 2, before any engine is asked:
// here no engine answers, and no message may blame it.
func TestBadInputIsReportedFirst(t *testing.T) {
	noEngine := []string{"DOCKER_HOST=unix:///nonexistent"}
	suite := "--suite=../../orchestrator/harness/testdata/suite"
	corrupt := filepath.Join(t.TempDir(), "baselines.json")
	os.WriteFile(corrupt, []byte("{\n  \"benches\": {\n    \"count\": nope\n}}\n"), 0o644)
	link := filepath.Join(t.TempDir(), "summary.md")
	os.Symlink(corrupt, link)
	// Two identical benches, one given VALGRIND_OPTS by its suite file.
	envSuite := t.TempDir()
	os.MkdirAll(filepath.Join(envSuite, "benches", "micro"), 0o755)
	for _, n := range []string{"loop_a.c", "loop_b.c"} {
		os.WriteFile(filepath.Join(envSuite, "benches", "micro", n), []byte("int main(void) { return 0; }\n"), 0o644)
	}
	os.WriteFile(filepath.Join(envSuite, "benches", "catalogue.json"), []byte(`{"benches": {"loop_b": {"env": {"VALGRIND_OPTS": "--toggle-collect=main"}}}}`), 0o644)
	// A suite whose benches/micro, or whose benches/, is a link to a folder
	// outside it: every source there would become a bench.
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(outside, "micro"), 0o755)
	os.WriteFile(filepath.Join(outside, "micro", "secret.c"), []byte("int main(void) { return 0; }\n"), 0o644)
	microLink, benchesLink := t.TempDir(), t.TempDir()
	os.MkdirAll(filepath.Join(microLink, "benches"), 0o755)
	os.Symlink(filepath.Join(outside, "micro"), filepath.Join(microLink, "benches", "micro"))
	os.Symlink(outside, filepath.Join(benchesLink, "benches"))
	// A suite whose xproc/, or a program in it, is a link.
	xprocLink, xprocFileLink := t.TempDir(), t.TempDir()
	os.Symlink(outside, filepath.Join(xprocLink, "xproc"))
	os.MkdirAll(filepath.Join(xprocFileLink, "xproc"), 0o755)
	os.Symlink(filepath.Join(outside, "micro", "secret.c"), filepath.Join(xprocFileLink, "xproc", "xproc.c"))
	junk := filepath.Join(t.TempDir(), "evidence.tar")
	os.WriteFile(junk, []byte("not a tar"), 0o644)
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"run", "--suite=" + microLink, "--lang=c", "--subject=c"}, []string{filepath.Join(microLink, "benches", "micro") + " is a symlink"}},
		{[]string{"images", "--suite=" + microLink, "--lang=c"}, []string{filepath.Join(microLink, "benches", "micro") + " is a symlink"}},
		{[]string{"run", "--suite=" + benchesLink, "--lang=c", "--subject=c"}, []string{filepath.Join(benchesLink, "benches") + " is a symlink"}},
		{[]string{"run", suite, "--baselines=" + corrupt}, []string{corrupt, "line 3"}},
		{[]string{"run", suite, "--bench=nosuch"}, []string{`no bench named "nosuch"`}},
		{[]string{"run", suite, "--iters=0"}, []string{"--iters=0"}},
		{[]string{"run", suite, "--count=sometimes"}, []string{"--count=sometimes"}},
		{[]string{"run", suite, "--count-runs=1"}, []string{"--count-runs=1"}},
		{[]string{"run", suite, "--lang=c", "--count-langs=go"}, []string{"--count-langs=go"}},
		{[]string{"run", suite, "--lang=c,cobol"}, []string{"cobol"}},
		{[]string{"run", "--suite=/nonexistent-suite"}, []string{"no benches/ folder"}},
		{[]string{"xproc", "--variant=medium"}, []string{"--variant=medium"}},
		{[]string{"xproc", "--iters=0"}, []string{"--iters=0"}},
		{[]string{"xproc", "--suite=" + xprocLink, "--lang=c"}, []string{filepath.Join(xprocLink, "xproc") + " is a symlink"}},
		{[]string{"xproc", "--suite=" + xprocFileLink, "--lang=c"}, []string{filepath.Join(xprocFileLink, "xproc", "xproc.c") + " is a symlink"}},
		{[]string{"run", suite, "--hale-src=/nonexistent-hale"}, []string{"--hale-src=/nonexistent-hale"}},
		{[]string{"images", suite, "--hale-vendor=/nonexistent-crates"}, []string{"--hale-vendor=/nonexistent-crates"}},
		{[]string{"xproc", "--hale-git=/nonexistent-git"}, []string{"--hale-git=/nonexistent-git"}},
		{[]string{"verify", "--hale-src=/nonexistent-hale", "../../orchestrator/report/testdata/no-such.json"}, []string{"no-such.json"}},
		{[]string{"run", suite, "--progress=fancy"}, []string{"--progress=fancy", "help run"}},
		{[]string{"run", suite, "--junit=/nonexistent-dir/junit.xml"}, []string{"/nonexistent-dir/junit.xml", "does not exist"}},
		{[]string{"run", suite, "--summary=" + link}, []string{link, "not a regular file"}},
		{[]string{"run", "--suite=" + envSuite, "--lang=c", "--subject=c"}, []string{"bench loop_b", `"VALGRIND_OPTS"`, "is not allowed"}},
		{[]string{"ab", "--suite=" + envSuite, "--lang=c", "--subject=c"}, []string{"bench loop_b", `"VALGRIND_OPTS"`, "is not allowed"}},
		// Inputs that would gate nothing.
		{[]string{"run", suite, "--baselines=/nonexistent/b.json"}, []string{"--baselines=/nonexistent/b.json: no such file"}},
		{[]string{"run", suite, "--baselines=/nonexistent/b.json", "--update-baselines"}, []string{"its folder /nonexistent does not exist"}},
		{[]string{"run", suite, "--alpha=0"}, []string{"--alpha=0: want a significance level above 0 and below 0.5"}},
		{[]string{"run", suite, "--alpha=NaN"}, []string{"--alpha=NaN"}},
		{[]string{"run", suite, "--alpha=0.7"}, []string{"--alpha=0.7"}},
		{[]string{"ab", suite, "--subject=c", "--threshold=0"}, []string{"--threshold=0: want a fraction above 0 and below 1"}},
		{[]string{"ab", suite, "--subject=c", "--budget=-1m"}, []string{"--budget=-1m0s"}},
		{[]string{"prune", "--cache-dir=/nonexistent-halebench-cache"}, []string{"--cache-dir=/nonexistent-halebench-cache: no such folder"}},
		// Checked before the engine, though the verb needs one.
		{[]string{"replay", junk}, []string{"replay: reading bundle " + junk}},
		{[]string{"own-image", "--dir=" + t.TempDir()}, []string{"no Dockerfile there"}},
		{[]string{"own-image", "--dir=../..", "-t=Not A Tag"}, []string{`-t="Not A Tag" is not an image reference`}},
		{[]string{"ab", suite, "--subject=c", "--html=/nonexistent-dir/ab.html"}, []string{"--html=/nonexistent-dir/ab.html", "does not exist"}},
		{[]string{"ab", suite, "--subject=c", "--b-image=Bad Image"}, []string{`--b-image="Bad Image"`}},
		{[]string{"run", suite, "--base-image=debian trixie"}, []string{`--base-image="debian trixie" is not an image reference`}},
		{[]string{"run", suite, "--hale-image=Hale:1"}, []string{`--hale-image="Hale:1"`}},
	}
	for _, c := range cases {
		code, _, errOut := run(t, noEngine, c.args...)
		if code != 2 || strings.Contains(strings.ToLower(errOut), "engine") {
			t.Fatalf("%v: exit %d, stderr %s", c.args, code, errOut)
		}
		for _, w := range c.want {
			if !strings.Contains(errOut, w) {
				t.Fatalf("%v: stderr %q lacks %q", c.args, errOut, w)
			}
		}
	}
}

// The exit code of a regression, and the CI files a regressed run writes,
// through the binary on the fake engine (fakeRun).
func TestRegressionExit1(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "baselines.json")
	os.WriteFile(p, []byte(`{"updated_at": "x", "subject": "c", "benches": {"count": {"kind": "micro", "elapsed_ns": 1, "maxrss_kb": 1}}}`), 0o644)
	junit, summary, ghSummary := filepath.Join(dir, "junit.xml"), filepath.Join(dir, "summary.md"), filepath.Join(dir, "gh.md")
	code, out, errOut := fakeRun(t, []string{"GITHUB_STEP_SUMMARY=" + ghSummary}, "run", "--suite=../../orchestrator/harness/testdata/suite", "--bench=count",
		"--lang=c", "--subject=c", "--iters=2", "--baselines="+p, "--gate-any-machine", "--results="+filepath.Join(dir, "results"),
		"--junit="+junit, "--summary="+summary)
	if code != 1 || !strings.Contains(out, "REGRESSION") || !strings.Contains(errOut, "regressed") {
		t.Fatalf("exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	checkCIResults(t, errOut, junit, summary, ghSummary)
	code, out, _ = fakeRun(t, nil, "run", "--suite=../../orchestrator/harness/testdata/suite", "--bench=count",
		"--lang=c", "--subject=c", "--iters=2", "--baselines="+p, "--gate-any-machine", "--results="+filepath.Join(dir, "results"), "--json")
	if code != 1 || !strings.HasPrefix(strings.TrimSpace(out), "{") || !strings.Contains(out, `"status": "regression"`) {
		t.Fatalf("--json: exit %d\n%s", code, out)
	}
}

// Green only on evidence: with no hale to be had (no ../hale beside the
// suite, the release's URL a closed port, see TestMain), a run in CI
// measures the rest, writes its report and exits 3 naming why; on a
// workstation the same run warns and exits 0. On the fake engine
// (fakeRun): what is tested is the verb's verdict, not a sample.
func TestUnmeasuredSubjectExit3InCI(t *testing.T) {
	dir := t.TempDir()
	args := []string{"run", "--suite=../../orchestrator/harness/testdata/suite", "--bench=count", "--lang=c", "--iters=1", "--warmup=0",
		"--confirm=0", "--count=off", "--results=" + filepath.Join(dir, "results"), "--junit=" + filepath.Join(dir, "junit.xml")}
	code, _, errOut := fakeRun(t, []string{"CI=true"}, args...)
	if code != 3 || !strings.Contains(errOut, "halebench: hale: unavailable (") || !strings.Contains(errOut, "in CI (CI=true)") {
		t.Fatalf("CI=true: exit %d, want 3 naming why\n%s", code, errOut)
	}
	if reports, _ := filepath.Glob(filepath.Join(dir, "results", "run-*.json")); len(reports) != 1 {
		t.Fatalf("CI=true: the report is written all the same: %v", reports)
	}
	if _, err := os.Stat(filepath.Join(dir, "junit.xml")); err != nil {
		t.Fatalf("CI=true: the JUnit file is written all the same: %v", err)
	}
	code, _, errOut = fakeRun(t, []string{"CI=false"}, args...)
	if code != 0 || !strings.Contains(errOut, "warning: hale: unavailable") {
		t.Fatalf("CI=false: exit %d, want 0 and the warning\n%s", code, errOut)
	}
}

// show re-renders a stored report without an engine; bad files exit 2.
func TestShow(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "run.json")
	os.WriteFile(p, []byte(`{"schema": "halebench-report/1", "generated_at": "2026-12-02T00:00:00Z", "subject": "c", "subject_status": "available",
		"iters": 5, "settings": {"languages": ["c", "go"]},
		"categories": [{"name": "overhead", "title": "Overhead microbenches", "benches": ["fn_call"]}],
		"benches": [{"name": "fn_call", "subject_result": {"status": "ok", "elapsed_ns_median": 3000000, "comparable": true},
			"comparatives": {"go": {"status": "ok", "elapsed_ns_median": 8000000, "ratio_vs_subject": 2.667, "comparable": true}}}]}`), 0o644)
	code, out, _ := run(t, []string{"DOCKER_HOST=unix:///tmp/halebench-no-such.sock"}, "show", p)
	if code != 0 || !strings.Contains(out, "fn_call  3.00 ms  8.00 ms (2.67×)") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	os.WriteFile(p, []byte(`{"schema": "other"}`), 0o644)
	if code, _, errOut := run(t, nil, "show", p); code != 2 || !strings.Contains(errOut, `schema "other"`) {
		t.Fatalf("exit %d %s", code, errOut)
	}
	if code, _, _ := run(t, nil, "show", filepath.Join(dir, "missing.json")); code != 2 {
		t.Fatalf("missing file: exit %d", code)
	}
	// A stored ab result and a stored xproc report (written by the code
	// before the envelope) print as their verbs printed them, or as
	// Markdown.
	const fixtures = "../../orchestrator/result/testdata/"
	for _, c := range []struct {
		args   []string
		golden string
	}{
		{[]string{"show", fixtures + "today/ab-20261206T101112Z-abc123.json"}, "today/ab.grid"},
		{[]string{"show", "--markdown", fixtures + "today/ab-20261206T101112Z-abc123.json"}, "today/ab.md"},
		{[]string{"show", fixtures + "today/xproc-20261206T111213Z.json"}, "today/xproc.tables"},
		{[]string{"show", "--markdown", fixtures + "today/xproc-20261206T111213Z.json"}, "xproc.md"},
	} {
		want, err := os.ReadFile(fixtures + c.golden)
		if err != nil {
			t.Fatal(err)
		}
		if code, out, errOut := run(t, []string{"DOCKER_HOST=unix:///tmp/halebench-no-such.sock"}, c.args...); code != 0 || out != string(want) {
			t.Errorf("%v: exit %d, %s\n%s", c.args, code, errOut, out)
		}
	}
}

// compare reads two stored reports without an engine; bad files exit 2.
func TestCompareVerb(t *testing.T) {
	dir := t.TempDir()
	doc := func(samples string) string {
		return `{"schema": "halebench-report/1", "generated_at": "2026-12-02T00:00:00Z", "subject": "c", "host": {"cpu_model": "X", "logical_cpus": 2},
			"benches": [{"name": "fn_call", "subject_result": {"status": "ok", "elapsed_ns_median": ` + strings.Split(samples, ",")[2] + `, "elapsed_ns_samples": [` + samples + `]}}]}`
	}
	oldP, newP := filepath.Join(dir, "old.json"), filepath.Join(dir, "new.json")
	os.WriteFile(oldP, []byte(doc("100,101,102,103,104")), 0o644)
	os.WriteFile(newP, []byte(doc("150,151,152,153,154")), 0o644)
	code, out, _ := run(t, []string{"DOCKER_HOST=unix:///nonexistent"}, "compare", oldP, newP)
	if code != 0 || !strings.Contains(out, "fn_call") || !strings.Contains(out, "+49.0%") || !strings.Contains(out, "slower") {
		t.Fatalf("exit %d\n%s", code, out)
	}
	code, out, _ = run(t, nil, "compare", "--json", oldP, newP)
	if code != 0 || !strings.Contains(out, `"verdict": "slower"`) {
		t.Fatalf("--json: exit %d\n%s", code, out)
	}
	abP := "../../orchestrator/result/testdata/today/ab-20261206T101112Z-abc123.json"
	for _, verb := range [][]string{{"bundle", "-o", filepath.Join(dir, "e.tar")}, {"verify"}} {
		code, _, errOut := run(t, []string{"DOCKER_HOST=unix:///nonexistent"}, append(verb, abP)...)
		// Taken as an ab result, refused for what it lacks: its base records no build inputs.
		if code != 2 || !strings.Contains(errOut, abP+" (an ab result, side A) records no build inputs of its base") || !strings.Contains(errOut, "rerun `halebench ab`") {
			t.Errorf("%s of an ab result without inputs: exit %d, %s", verb[0], code, errOut)
		}
	}
	if code, _, errOut := run(t, nil, "compare", "--metric=instructions", oldP, newP); code != 2 || !strings.Contains(errOut, "give one of time, memory") {
		t.Fatalf("compare --metric=instructions: exit %d, %s", code, errOut)
	}
	if code, out, errOut := run(t, nil, "compare", "--metric=memory", oldP, newP); code != 0 || !strings.Contains(out, "metric: memory (KiB)") {
		t.Fatalf("compare --metric=memory: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, _, errOut := run(t, nil, "compare", oldP, abP); code != 2 || !strings.Contains(errOut, abP+" is an ab result (halebench-ab/1)") || !strings.Contains(errOut, "is a run report") {
		t.Fatalf("compare of an ab result: exit %d, %s", code, errOut)
	}
	// Two stored ab results, two stored xproc reports: a table each.
	xpP := "../../orchestrator/result/testdata/today/xproc-20261206T111213Z.json"
	for p, want := range map[string]string{abP: "fn_modular  1.10× [1.08, 1.12]", xpP: "large/c     8.10 ms"} {
		if code, out, errOut := run(t, nil, "compare", p, p); code != 0 || !strings.Contains(out, want) {
			t.Errorf("compare of two stored %s: exit %d\n%s\n%s", p, code, out, errOut)
		}
	}
	if code, _, errOut := run(t, nil, "compare", oldP); code != 2 || !strings.Contains(errOut, "two report files") {
		t.Fatalf("one file: exit %d %s", code, errOut)
	}
}

// Flags stand anywhere among a verb's arguments, and every error names its
// own verb (never another's).
func TestFlagsAnywhereAndVerbNamed(t *testing.T) {
	dir := t.TempDir()
	doc := `{"schema": "halebench-report/1", "generated_at": "2026-12-02T00:00:00Z", "subject": "c", "host": {"cpu_model": "X", "logical_cpus": 2},
		"benches": [{"name": "fn_call", "subject_result": {"status": "ok", "elapsed_ns_median": 102, "elapsed_ns_samples": [100,101,102,103,104]}}]}`
	oldP, newP := filepath.Join(dir, "old.json"), filepath.Join(dir, "new.json")
	os.WriteFile(oldP, []byte(doc), 0o644)
	os.WriteFile(newP, []byte(doc), 0o644)
	noEngine := []string{"DOCKER_HOST=unix:///nonexistent"}
	for _, args := range [][]string{
		{"compare", oldP, newP, "--alpha=0.05"},
		{"compare", oldP, newP, "--lang=c"},
		{"compare", oldP, "--json", newP},
		{"show", oldP, "--markdown"},
	} {
		if code, out, errOut := run(t, noEngine, args...); code != 0 || !strings.Contains(out, "fn_call") && !strings.Contains(out, "Latest snapshot") {
			t.Fatalf("%v: exit %d\n%s\n%s", args, code, out, errOut)
		}
	}
	for _, verb := range []string{"run", "images", "xproc", "show", "compare", "report", "prune", "verify", "own-image", "bundle", "replay"} {
		code, _, errOut := run(t, noEngine, verb, "--no-such-flag")
		if code != 2 || !strings.Contains(errOut, "halebench help "+verb+" ") || !strings.Contains(errOut, verb+": flag provided but not defined") {
			t.Fatalf("%s --no-such-flag: exit %d\n%s", verb, code, errOut)
		}
		if n := strings.Count(errOut, "halebench help "); n != 1 {
			t.Fatalf("%s: %d help pointers\n%s", verb, n, errOut)
		}
	}
	for verb, args := range map[string][]string{
		"bundle": {"bundle"}, "replay": {"replay", filepath.Join(dir, "no-such.tar")}, "verify": {"verify", oldP, newP},
	} {
		code, _, errOut := run(t, noEngine, args...)
		if code != 2 || !strings.Contains(errOut, "halebench help "+verb+" ") || strings.Contains(strings.ToLower(errOut), "engine") {
			t.Fatalf("%v: exit %d\n%s", args, code, errOut)
		}
	}
}

// checkCIResults checks what a regressed run of the bench count gave CI:
// the verdict as stderr's last line, a JUnit failure, both summaries.
func checkCIResults(t *testing.T, errOut, junit string, summaries ...string) {
	t.Helper()
	lines := strings.Split(strings.TrimRight(errOut, "\n"), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "halebench: verdict regression — 1 regression (count +") {
		t.Fatalf("last stderr line is not the verdict: %q", last)
	}
	x, err := os.ReadFile(junit)
	if err != nil || !strings.Contains(string(x), `<testcase name="count" classname="halebench.c"`) ||
		!strings.Contains(string(x), `<failure message="regression: time median`) {
		t.Fatalf("junit (%v):\n%s", err, x)
	}
	for _, p := range summaries {
		md, err := os.ReadFile(p)
		if err != nil || !strings.HasPrefix(string(md), "### halebench verdict regression — 1 regression (count +") {
			t.Fatalf("summary %s (%v):\n%s", p, err, md)
		}
	}
}

// emptyBaselines writes a baselines file with no bench in dir and returns
// its path: a --baselines path that does not exist is refused (it would
// gate nothing).
func emptyBaselines(t *testing.T, dir string) string {
	t.Helper()
	p := filepath.Join(dir, "b.json")
	if err := os.WriteFile(p, []byte(`{"benches": {}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
