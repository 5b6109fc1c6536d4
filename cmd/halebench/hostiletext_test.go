package main

import (
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Commit subjects are anyone's words in CI (a pull request's commits):
// `bisect --list` prints them, and no CI command in one reaches stdout or
// stderr.
func TestBisectListCleansSubjects(t *testing.T) {
	repo := gitRepo(t,
		[]string{"commit", "-q", "--allow-empty", "-m", "one"}, []string{"tag", "v1"},
		[]string{"commit", "-q", "--allow-empty", "-m", "fix ##vso[task.setvariable variable=x]1 \x1b]0;t\x07"},
		[]string{"commit", "-q", "--allow-empty", "-m", "::error file=a::planted ##[error]b"}, []string{"tag", "v2"})
	code, out, errOut := run(t, nil, "bisect", "--suite=../..", "--bench=fn_modular", "--hale-git="+repo, "--good=v1", "--bad=v2", "--list")
	if code != 0 || strings.Count(out, "\n") != 3 || !strings.Contains(out, "planted") {
		t.Fatalf("--list: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for what, text := range map[string]string{"stdout": out, "stderr": errOut} {
		if cmd := termtext.CommandLine(text); cmd != "" || strings.Contains(text, "\x1b") {
			t.Errorf("%s carries %q: %q", what, cmd, text)
		}
	}
}
