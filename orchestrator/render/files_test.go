package render

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// junitparserScript prints what Debian's python3-junitparser reads of a
// JUnit file: the suite's counts and each case's outcome, as JSON.
const junitparserScript = `
import json, sys
from junitparser import JUnitXml, Failure, Skipped, Error
xml = JUnitXml.fromfile(sys.argv[1])
out = {"suites": []}
for suite in xml:
    s = {"name": suite.name, "tests": suite.tests, "failures": suite.failures, "skipped": suite.skipped, "cases": []}
    for case in suite:
        kind, msg = "passed", ""
        for r in case.result:
            if isinstance(r, Failure): kind, msg = "failure", r.message
            elif isinstance(r, Skipped): kind, msg = "skipped", r.message
            elif isinstance(r, Error): kind, msg = "error", r.message
        s["cases"].append({"name": case.name, "classname": case.classname, "time": case.time, "kind": kind, "message": msg})
    out["suites"].append(s)
print(json.dumps(out))
`

type junitparserOut struct {
	Suites []struct {
		Name     string `json:"name"`
		Tests    int    `json:"tests"`
		Failures int    `json:"failures"`
		Skipped  int    `json:"skipped"`
		Cases    []struct {
			Name      string  `json:"name"`
			Classname string  `json:"classname"`
			Time      float64 `json:"time"`
			Kind      string  `json:"kind"`
			Message   string  `json:"message"`
		} `json:"cases"`
	} `json:"suites"`
}

// junitparserPython is the Python that has Debian's python3-junitparser:
// Debian's own first (a pyenv shim on PATH does not see Debian's
// packages), then the one on PATH. Without one it skips, except under
// CI=true, where the absence fails (make deps-test installs it).
func junitparserPython(t *testing.T) string {
	t.Helper()
	var errs []string
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		err := exec.Command(py, "-c", "import junitparser").Run()
		if err == nil {
			return py
		}
		errs = append(errs, py+": "+err.Error())
	}
	msg := "python3-junitparser is missing (make deps-test installs it): " + strings.Join(errs, "; ")
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

// A real consumer reads the file WriteJUnit wrote: the regression and the
// failures are failures, the unjudged benches skipped, the rest passed.
func TestJUnitReadByJunitparser(t *testing.T) {
	py := junitparserPython(t)
	path := filepath.Join(t.TempDir(), "junit.xml")
	if err := WriteJUnit(path, sample()); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "-c", junitparserScript, path)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("junitparser could not read %s: %v\n%s", path, err, out)
	}
	var got junitparserOut
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(got.Suites) != 1 {
		t.Fatalf("%d suites: %s", len(got.Suites), out)
	}
	s := got.Suites[0]
	if s.Name != "halebench.hale" || s.Tests != 7 || s.Failures != 3 || s.Skipped != 2 {
		t.Fatalf("suite: %s", out)
	}
	want := map[string]string{"fn_modular": "failure", "fn_crash": "failure", "fn_noisy": "skipped", "fn_new": "skipped", "fn_a": "passed", "fn_b": "passed"}
	for _, c := range s.Cases {
		if c.Classname != "halebench.hale" {
			t.Errorf("%s: classname %q", c.Name, c.Classname)
		}
		if k, ok := want[c.Name]; ok && k != c.Kind {
			t.Errorf("%s: %s, want %s (%s)", c.Name, c.Kind, k, c.Message)
		}
		delete(want, c.Name)
		if c.Name == "fn_modular" && (!strings.Contains(c.Message, "ratio 1.310 (+31.0%)") || math.Abs(c.Time-0.00131) > 1e-9) {
			t.Errorf("regression as junitparser reads it: %+v", c)
		}
		if strings.Contains(c.Name, "pwned") && (c.Kind != "failure" || strings.HasPrefix(c.Name, "::")) {
			t.Errorf("hostile bench as junitparser reads it: %+v", c)
		}
	}
	if len(want) > 0 {
		t.Errorf("cases junitparser did not find: %v", want)
	}
}

// The summary is appended, never truncating what the job wrote before; a
// missing file is created; a symlink and a FIFO are refused.
func TestAppendSummary(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "summary.md")
	if err := os.WriteFile(p, []byte("earlier step\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if err := AppendSummary(p, sample()); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := os.ReadFile(p)
	if !strings.HasPrefix(string(b), "earlier step\n### halebench verdict failed") || strings.Count(string(b), "### halebench verdict") != 2 {
		t.Fatalf("appended file:\n%s", b)
	}
	fresh := filepath.Join(dir, "new.md")
	if err := AppendSummary(fresh, sample()); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(fresh); !strings.HasPrefix(string(b), "### halebench verdict") {
		t.Fatalf("created file:\n%s", b)
	}

	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("keep"), 0o644)
	link := filepath.Join(dir, "link.md")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := AppendSummary(link, sample()); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Fatalf("symlink: %v", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Fatalf("the symlink's target was written: %q", b)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := AppendSummary(fifo, sample()); err == nil {
		t.Fatal("a FIFO was written to")
	}
}

// WriteJUnit replaces the file whole, and refuses a symlink rather than
// writing through it.
func TestWriteJUnitReplaces(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("keep"), 0o644)
	link := filepath.Join(dir, "junit.xml")
	os.Symlink(target, link)
	if err := WriteJUnit(link, sample()); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Fatalf("a symlinked junit.xml: %v, want it refused", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Fatalf("written through the symlink: %q", b)
	}
	os.Remove(link)
	if err := WriteJUnit(link, sample()); err != nil {
		t.Fatal(err)
	}
	if err := WriteJUnit(link, sample()); err != nil {
		t.Fatal(err)
	}
	st, err := os.Lstat(link)
	if err != nil || !st.Mode().IsRegular() {
		t.Fatalf("junit.xml is not a regular file now: %v %v", st, err)
	}
	if err := WriteJUnit(filepath.Join(dir, "no-such-dir", "j.xml"), sample()); err == nil || !strings.Contains(err.Error(), "no-such-dir") {
		t.Fatalf("missing folder: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".junit.xml.tmp-*")); len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

// Targets writes the step summary once when the flag and the environment
// name the same file, and to both when they differ.
func TestTargets(t *testing.T) {
	if o := Targets("j.xml", "", ""); o.JUnit != "j.xml" || len(o.Summaries) != 0 {
		t.Fatalf("%+v", o)
	}
	if o := Targets("", "a.md", "./a.md"); len(o.Summaries) != 1 {
		t.Fatalf("same file twice: %+v", o)
	}
	if o := Targets("", "a.md", "/gh/step"); len(o.Summaries) != 2 {
		t.Fatalf("two files: %+v", o)
	}
	if o := Targets("", "", "/gh/step"); len(o.Summaries) != 1 || o.Summaries[0] != "/gh/step" {
		t.Fatalf("env only: %+v", o)
	}
}
