package enginetest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// History makes a hale-like history in a temporary folder and returns a
// bare clone of it and the commits by name: main has c1 (tag v1), c2, a
// merge of branch side (s1), c3 (tag v2); side has s1 only.
func History(t testing.TB) (string, map[string]string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is needed and CI=true")
		}
		t.Skip("git is not installed on this host")
	}
	work := t.TempDir()
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", work}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v: %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	commit := func(name string) string {
		p := filepath.Join(work, "crates", "hale-cli", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
		run("add", "-A")
		run("commit", "-q", "-m", "subject "+name)
		return run("rev-parse", "HEAD")
	}
	ids := map[string]string{}
	run("init", "-q", "-b", "main")
	ids["c1"] = commit("c1")
	run("tag", "v1")
	run("checkout", "-q", "-b", "side")
	ids["s1"] = commit("s1")
	run("checkout", "-q", "main")
	ids["c2"] = commit("c2")
	run("merge", "-q", "--no-ff", "-m", "merge side", "side")
	ids["m"] = run("rev-parse", "HEAD")
	ids["c3"] = commit("c3")
	run("tag", "v2")
	bare := filepath.Join(t.TempDir(), "hale.git")
	if out, err := exec.Command("git", "clone", "-q", "--bare", work, bare).CombinedOutput(); err != nil {
		t.Fatalf("bare clone: %v: %s", err, out)
	}
	return bare, ids
}
