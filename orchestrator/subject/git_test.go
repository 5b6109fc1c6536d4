package subject

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/gitrepo"
)

// git runs in a clean environment: a caller's GIT_DIR and GIT_WORK_TREE (a
// hook's) do not send it to another repository, and no config of the
// caller's — the user's ~/.gitconfig, GIT_CONFIG_GLOBAL, GIT_CONFIG_COUNT,
// GIT_CONFIG_PARAMETERS (what `git -c` hands down) — can allow the ext::
// transport and rewrite file:// to a command. ext:: itself is refused.
func TestGitIgnoresCallersEnvironment(t *testing.T) {
	repo, ids := enginetest.History(t)
	ctx := context.Background()
	marker := filepath.Join(t.TempDir(), "pwned")
	evil := "ext::touch " + marker + " "
	home := t.TempDir()
	cfg := "[protocol \"ext\"]\n\tallow = always\n[protocol]\n\tallow = always\n[url \"" + evil + "\"]\n\tinsteadOf = file://\n"
	write(t, filepath.Join(home, ".gitconfig"), cfg)
	write(t, filepath.Join(home, "global"), cfg)
	t.Setenv("HOME", home)
	t.Setenv("GIT_CONFIG_GLOBAL", filepath.Join(home, "global"))
	t.Setenv("GIT_DIR", filepath.Join(t.TempDir(), "elsewhere.git"))
	t.Setenv("GIT_WORK_TREE", t.TempDir())
	t.Setenv("GIT_CONFIG_COUNT", "2")
	t.Setenv("GIT_CONFIG_KEY_0", "protocol.ext.allow")
	t.Setenv("GIT_CONFIG_VALUE_0", "always")
	t.Setenv("GIT_CONFIG_KEY_1", "url."+evil+".insteadOf")
	t.Setenv("GIT_CONFIG_VALUE_1", "file://")
	t.Setenv("GIT_CONFIG_PARAMETERS", "'protocol.ext.allow'='always'")

	if id, err := gitrepo.ResolveRef(ctx, repo, "v1"); err != nil || id != ids["c1"] {
		t.Errorf("ResolveRef(v1) = %s, %v; want %s (the given repository, not GIT_DIR's)", id, err, ids["c1"])
	}
	dir := filepath.Join(t.TempDir(), "src")
	if id, err := cloneRef(ctx, repo, "v2", dir); err != nil || id != ids["c3"] || !haleTree(dir) {
		t.Errorf("cloneRef(v2) = %s, %v; want %s and its tree", id, err, ids["c3"])
	}
	if _, err := gitrepo.Run(ctx, "ls-remote", "--", evil+repo, "HEAD"); err == nil || !strings.Contains(err.Error(), "not allowed") {
		t.Errorf("an ext:: remote: %v, want the transport refused", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a command from the caller's git config or an ext:: URL ran")
	}
}
