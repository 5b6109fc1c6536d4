package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"golang.org/x/sys/unix"
)

// runBounded is run with a deadline: a FIFO read would block for ever.
func runBounded(t *testing.T, env []string, args ...string) (int, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(append(os.Environ(), notCI), env...)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%v still running after a minute", args)
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), errb.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, errb.String()
}

// A symlinked baselines.json, a FIFO, a 1e9 host drift and a median that
// disagrees with its own samples each exit 2 naming the file and the field,
// before any engine is asked (none answers here).
func TestHostileBaselinesExit2(t *testing.T) {
	noEngine := []string{"DOCKER_HOST=unix:///nonexistent"}
	suite := "--suite=../../orchestrator/harness/testdata/suite"
	dir := t.TempDir()
	file := func(name, doc string) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(doc), 0o644)
		return p
	}
	link := filepath.Join(dir, "link.json")
	os.Symlink(file("real.json", `{"benches": {}}`), link)
	fifo := filepath.Join(dir, "fifo.json")
	if err := unix.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		link: "symlink",
		fifo: "not a regular file",
		file("sigma.json", `{"host_drift_sigma": 1e9, "benches": {}}`):                                                                  "host_drift_sigma",
		file("median.json", `{"benches": {"count": {"kind": "micro", "elapsed_ns": 100, "maxrss_kb": 1, "samples": [300, 310, 320]}}}`): "elapsed_ns",
	}
	for p, field := range cases {
		code, errOut := runBounded(t, noEngine, "run", suite, "--baselines="+p)
		if code != 2 || !strings.Contains(errOut, p) || !strings.Contains(errOut, field) || strings.Contains(strings.ToLower(errOut), "engine") {
			t.Errorf("%s: exit %d, stderr %s", p, code, errOut)
		}
	}
}

// A report whose PACKAGES carries an apt option is refused by verify with
// exit 2 before anything is built.
func TestVerifyRefusesHostilePackages(t *testing.T) {
	rep := report.Report{Schema: report.Schema,
		Base: report.Base{Ref: "halebench/base:trixie-1", ID: "sha256:aa", Inputs: &report.Inputs{SourceDateEpoch: 1,
			Builder: "mmdebstrap --variant=minbase --include=ca-certificates trixie http://deb.debian.org/debian; halebench"}},
		Images: map[string]report.Toolchain{"c": {Status: outcome.Available, Ref: "halebench/toolchain-c:x",
			Inputs: &report.Inputs{BuildArgs: map[string]string{"PACKAGES": "-o APT::Update::Pre-Invoke::=touch${IFS}/tmp/owned clang=1"}}}}}
	data, _ := json.Marshal(rep)
	p := filepath.Join(t.TempDir(), "report.json")
	os.WriteFile(p, data, 0o644)
	code, errOut := runBounded(t, []string{"DOCKER_HOST=unix:///nonexistent"}, "verify", p)
	if code != 2 || !strings.Contains(errOut, p) || !strings.Contains(errOut, "PACKAGES") {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
}
