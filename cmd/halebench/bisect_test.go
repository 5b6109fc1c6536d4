package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestBisectBadInput: bisect's bad input exits 2 with what to do, before any
// engine is asked (DOCKER_HOST points nowhere).
func TestBisectBadInput(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is needed and CI=true")
		}
		t.Skip("git is not installed on this host")
	}
	repo := t.TempDir()
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"commit", "-q", "--allow-empty", "-m", "one"}, {"tag", "v1"},
		{"commit", "-q", "--allow-empty", "-m", "two"}, {"tag", "v2"},
	} {
		cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
	}
	// The last case: with the ab verb wired in, the judge's session dials
	// the (absent) engine instead.
	wired := "bisect needs the ab verb"
	if newJudge != nil {
		wired = "engine unreachable at unix:///tmp/halebench-no-such.sock"
	}
	base := []string{"bisect", "--suite=../..", "--bench=fn_modular", "--hale-git=" + repo}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--good=v0", "--bad=v2"}, `no commit named "v0"`},
		{[]string{"--good=v2", "--bad=v1"}, "does not descend"},
		{[]string{"--good=v1", "--bad=v1"}, "are one commit"},
		{[]string{"--bad=v2"}, "--good=REF"},
		{[]string{"--good=v1", "--bad=v2", "--metric=cycles"}, "--metric=cycles"},
		{[]string{"--good=v1", "--bad=v2", "--threshold=2"}, "--threshold=2"},
		{[]string{"--good=v1", "--bad=v2", "--bench=nosuch"}, `no bench named "nosuch"`},
		{[]string{"--good=v1", "--bad=v2"}, wired},
	}
	for _, c := range cases {
		code, out, errOut := run(t, []string{"DOCKER_HOST=unix:///tmp/halebench-no-such.sock"}, append(append([]string{}, base...), c.args...)...)
		if code != 2 || !strings.Contains(errOut, c.want) || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 saying %q", c.args, code, out, errOut, c.want)
		}
	}
}
