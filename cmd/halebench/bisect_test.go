package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/bisect"
)

// TestBisectBadInput: bisect's bad input exits 2 with what to do, before any
// engine is asked (DOCKER_HOST points nowhere).
func TestBisectBadInput(t *testing.T) {
	repo := bisectRepo(t)
	// The last case: the judge's session dials the (absent) engine.
	wired := "engine unreachable at unix:///tmp/halebench-no-such.sock"
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
		{[]string{"--good=v1", "--bad=v2", "--metric=memory"}, "--metric=memory: give one of time, instructions"},
		{[]string{"--good=v1", "--bad=v2", "--threshold=2"}, "--threshold=2"},
		{[]string{"--good=v1", "--bad=v2", "--bench=nosuch"}, `no bench named "nosuch"`},
		{[]string{"--good=v1", "--bad=v2"}, wired},
	}
	code, out, errOut := run(t, nil, append(base, "--good=v1", "--bad=v2", "--list")...)
	if lines := strings.Split(strings.TrimSpace(out), "\n"); code != 0 || len(lines) != 2 || !strings.HasSuffix(lines[0], " one") || !strings.HasSuffix(lines[1], " two") {
		t.Errorf("--list: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, c := range cases {
		code, out, errOut := run(t, []string{"DOCKER_HOST=unix:///tmp/halebench-no-such.sock"}, append(append([]string{}, base...), c.args...)...)
		if code != 2 || !strings.Contains(errOut, c.want) || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 saying %q", c.args, code, out, errOut, c.want)
		}
	}
}

// bisectRepo is a git repository of two empty commits, tagged v1 and v2.
func bisectRepo(t *testing.T) string {
	t.Helper()
	return gitRepo(t, []string{"commit", "-q", "--allow-empty", "-m", "one"}, []string{"tag", "v1"},
		[]string{"commit", "-q", "--allow-empty", "-m", "two"}, []string{"tag", "v2"})
}

// gitRepo is a new git repository (branch main) after the git commands
// steps, run in it; git runs the tests' way (one identity, nothing else).
func gitRepo(t *testing.T, steps ...[]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is needed and CI=true")
		}
		t.Skip("git is not installed on this host")
	}
	repo := t.TempDir()
	gitIn(t, repo, "init", "-q", "-b", "main")
	for _, args := range steps {
		gitIn(t, repo, args...)
	}
	return repo
}

// gitIn runs git args in repo and returns its output, trimmed.
func gitIn(t *testing.T, repo string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// bisect --unprivileged reaches the judge's comparisons (as ab's flag does).
func TestBisectUnprivileged(t *testing.T) {
	repo := bisectRepo(t)
	for _, unpriv := range []bool{false, true} {
		var got *bool
		newJudge := func(ctx context.Context, c bisect.Config) (bisect.Judge, func(), error) {
			got = &c.Unprivileged
			return nil, nil, errors.New("judge made")
		}
		args := []string{"--suite=../..", "--bench=fn_modular", "--hale-git=" + repo, "--good=v1", "--bad=v2", "--quiet"}
		if unpriv {
			args = append(args, "--unprivileged")
		}
		err := runBisect(context.Background(), args, newJudge)
		if err == nil || err.Error() != "judge made" || got == nil || *got != unpriv {
			t.Errorf("--unprivileged=%v: err %v, the judge got %v", unpriv, err, got)
		}
	}
}
