package subject

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/gitrepo"
	"github.com/hale-lang/halebench/orchestrator/image"
)

func TestResolveRefAndCloneRef(t *testing.T) {
	repo, ids := enginetest.History(t)
	ctx := context.Background()
	for _, c := range []struct{ ref, want string }{
		{"v1", ids["c1"]}, {"v2", ids["c3"]}, {"main", ids["c3"]}, {"side", ids["s1"]},
		{ids["c2"], ids["c2"]}, {ids["c2"][:10], ids["c2"]},
	} {
		got, err := gitrepo.ResolveRef(ctx, repo, c.ref)
		if err != nil || got != c.want {
			t.Errorf("ResolveRef(%s) = %s, %v; want %s", c.ref, got, err, c.want)
		}
		dir := filepath.Join(t.TempDir(), "src")
		got, err = cloneRef(ctx, repo, c.ref, dir)
		if err != nil || got != c.want {
			t.Fatalf("cloneRef(%s) = %s, %v; want %s", c.ref, got, err, c.want)
		}
		if _, err := os.Stat(filepath.Join(dir, ".git")); !os.IsNotExist(err) {
			t.Errorf("cloneRef(%s) left .git: %v", c.ref, err)
		}
		if !haleTree(dir) {
			t.Errorf("cloneRef(%s): no crates/hale-cli in the tree", c.ref)
		}
	}
	// The tree is the commit's: c2's checkout has c1 and c2, not s1 or c3.
	dir := filepath.Join(t.TempDir(), "src")
	if _, err := cloneRef(ctx, repo, ids["c2"], dir); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"c1": true, "c2": true, "s1": false, "c3": false} {
		_, err := os.Stat(filepath.Join(dir, "crates", "hale-cli", name))
		if (err == nil) != want {
			t.Errorf("commit c2's tree: %s present = %v, want %v", name, err == nil, want)
		}
	}
	for _, bad := range []string{"v9", "no-such-branch", "0123456789abcdef0123456789abcdef01234567", "--upload-pack=x", ""} {
		if _, err := gitrepo.ResolveRef(ctx, repo, bad); !errors.Is(err, gitrepo.ErrUnknownRef) {
			t.Errorf("ResolveRef(%q) = %v, want ErrUnknownRef", bad, err)
		}
		if _, err := cloneRef(ctx, repo, bad, filepath.Join(t.TempDir(), "src")); !errors.Is(err, gitrepo.ErrUnknownRef) {
			t.Errorf("cloneRef(%q) = %v, want ErrUnknownRef", bad, err)
		}
	}
}

// TestHaleDefaultFailsFast: no hale flag, ../hale absent, and the official
// repository (here a closed loopback port) does not answer: hale is
// unavailable, and the reason says what was tried and why it failed.
func TestHaleDefaultFailsFast(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is needed and CI=true")
		}
		t.Skip("git is not installed on this host")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String() + "/hale-lang/hale"
	l.Close() // nothing listens there now: connection refused
	t.Setenv("HALEBENCH_HALE_URL", url)
	var log bytes.Buffer
	missing := filepath.Join(t.TempDir(), "hale")
	b := &build{Build: Build{Src: missing, SrcDefault: true}, log: &log}
	hb := &image.HaleBuild{}
	var p haleParts
	why, err := b.haleSource(context.Background(), hb, filepath.Join(t.TempDir(), "src"), &p)
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []string{"no hale source at " + missing, DefaultRef, url, "--hale-src"} {
		if !strings.Contains(why, part) {
			t.Errorf("reason %q does not say %q", why, part)
		}
	}
	if !strings.Contains(log.String(), "trying the pinned release") {
		t.Errorf("stderr does not say what was tried:\n%s", log.String())
	}
	if strings.Contains(log.String(), why) {
		t.Errorf("the builder says the reason itself (its caller says it, once):\n%s", log.String())
	}
	// A --hale-src given by flag is not replaced by the release.
	b.SrcDefault = false
	why, _ = b.haleSource(context.Background(), &image.HaleBuild{}, filepath.Join(t.TempDir(), "src"), &p)
	if strings.Contains(why, url) || !strings.Contains(why, "no hale source tree at") {
		t.Errorf("a given --hale-src that is absent: %q", why)
	}
}
