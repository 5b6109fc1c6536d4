package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/ab"
)

// Bad ab input exits 2 before any engine is asked (DOCKER_HOST points
// nowhere, so reaching the engine would say so instead).
func TestABBadInputIsReportedFirst(t *testing.T) {
	git := t.TempDir()
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "one"}, {"tag", "v1"}} {
		if out, err := exec.Command("git", append([]string{"-C", git}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v %s", args, err, out)
		}
	}
	nowhere := []string{"DOCKER_HOST=unix:///tmp/halebench-no-such.sock"}
	suite := "--suite=../../orchestrator/harness/testdata/suite"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--hale-git=" + git, "--a-ref=v9", "--b-ref=v1"}, "--a-ref=v9: no such tag, branch or commit in " + git},
		{[]string{"--a-ref=v1"}, "a ref needs --hale-git"},
		{[]string{"--hale-git=" + git, "--b-ref=v1", "--b-image=x"}, "side B: give one of --b-ref, --b-src, --b-image"},
		{[]string{"--a-suite=/no/such/suite"}, "side A:"},
		{[]string{"--bench=no_such_bench"}, `no bench named "no_such_bench"`},
		{[]string{"--threshold=2"}, "--threshold=2"},
		{[]string{"--min-rounds=10", "--max-rounds=5"}, "--min-rounds=10 --max-rounds=5"},
	} {
		code, _, errOut := run(t, nowhere, append([]string{"ab", suite, "--subject=c"}, c.args...)...)
		if code != 2 || !strings.Contains(errOut, c.want) || strings.Contains(errOut, "engine unreachable") {
			t.Errorf("%v: exit %d, stderr %s (want %q)", c.args, code, errOut, c.want)
		}
	}
	if code, out, _ := run(t, nil, "ab", "--help"); code != 0 || !strings.Contains(out, "randomized") && !strings.Contains(out, "RMIT") {
		t.Errorf("ab --help: exit %d\n%s", code, out)
	}
}

// --html=PATH writes the page through no link: a symlink at PATH is
// refused and its target kept.
func TestABHTMLFollowsNoLink(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("keep"), 0o644)
	link := filepath.Join(dir, "ab.html")
	os.Symlink(victim, link)
	o := &abOptions{html: link, jsonOut: true}
	res := &ab.Result{A: "a", B: "b"}
	printQuiet := func() error { // the JSON goes to stdout: not into the test's
		stdout := os.Stdout
		os.Stdout, _ = os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		defer func() { os.Stdout.Close(); os.Stdout = stdout }()
		return o.print(res)
	}
	err := printQuiet()
	if err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("--html at a symlink: %v, want it refused", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Fatalf("the link was followed: %q", b)
	}
	os.Remove(link)
	if err := printQuiet(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(link); !strings.Contains(string(b), "<") {
		t.Fatalf("the page: %.80q", b)
	}
}
