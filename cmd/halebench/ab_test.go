package main

import (
	"os/exec"
	"strings"
	"testing"
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
