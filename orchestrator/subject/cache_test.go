package subject

import (
	"context"
	"io"
	"os/exec"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/image"
)

// Which target dir a hale build gets: one per repository for its release
// tags, one per --hale-src folder, and the emptied one for anything else,
// including a branch named like a release and a tag the tree's version
// does not agree with.
func TestHaleCacheArgs(t *testing.T) {
	repo := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git("init", "--quiet")
	git("commit", "--quiet", "--allow-empty", "-m", "one")
	git("tag", "-a", "-m", "release", "v0.17.0")
	one := git("rev-parse", "HEAD")
	git("commit", "--quiet", "--allow-empty", "-m", "two")
	two := git("rev-parse", "HEAD")
	git("branch", "v0.18.0")
	git("tag", "v0.19.0")
	b := &build{log: io.Discard}
	release := haleCacheRelease + sha256Hex([]byte(repo))[:16]
	for _, c := range []struct {
		name  string
		hb    image.HaleBuild
		id    string
		fresh string
	}{
		{"a release tag", image.HaleBuild{Git: repo, Ref: "v0.17.0", Commit: one, WorkspaceVersion: "0.17.0"}, release, "0"},
		{"another release tag", image.HaleBuild{Git: repo, Ref: "v0.19.0", Commit: two, WorkspaceVersion: "0.19.0"}, release, "0"},
		{"a commit id", image.HaleBuild{Git: repo, Ref: two, Commit: two, WorkspaceVersion: "0.19.0"}, haleCacheRef, "1"},
		{"a branch named as a release", image.HaleBuild{Git: repo, Ref: "v0.18.0", Commit: two, WorkspaceVersion: "0.18.0"}, haleCacheRef, "1"},
		{"a tag of another commit", image.HaleBuild{Git: repo, Ref: "v0.17.0", Commit: two, WorkspaceVersion: "0.17.0"}, haleCacheRef, "1"},
		{"a tag the tree's version disagrees with", image.HaleBuild{Git: repo, Ref: "v0.19.0", Commit: two, WorkspaceVersion: "0.20.0"}, haleCacheRef, "1"},
		{"a tag of a repository that does not answer", image.HaleBuild{Git: "https://127.0.0.1:1/hale", Ref: "v0.17.0", Commit: one, WorkspaceVersion: "0.17.0"}, haleCacheRef, "1"},
		{"a source folder", image.HaleBuild{Src: "/some/hale"}, haleCacheSrc + sha256Hex([]byte("/some/hale"))[:16], "0"},
	} {
		args := b.haleCacheArgs(context.Background(), &c.hb)
		if args["HALE_TARGET_CACHE"] != c.id || args["HALE_TARGET_FRESH"] != c.fresh {
			t.Errorf("%s: %v, want %s fresh=%s", c.name, args, c.id, c.fresh)
		}
	}
}
