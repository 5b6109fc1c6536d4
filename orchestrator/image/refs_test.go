package image

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An image reference is checked for its form before any engine is asked.
func TestCheckRef(t *testing.T) {
	digest := "sha256:" + strings.Repeat("ab", 32)
	for _, ok := range []string{"debian:trixie", "halebench:latest", "localhost:5000/halebench/base:v1", "registry.example.com/a/b_c-d:t.1",
		"debian@" + digest, "debian:trixie@" + digest, digest, "0123456789ab", "halebench/self:0123456789abcdef"} {
		if err := CheckRef("--base-image", ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "Debian:trixie", "debian:", "debian trixie", "debian@sha256:abc", "-rm", "a//b", "debian:trixie\n", ":latest", strings.Repeat("a", 600)} {
		if err := CheckRef("--base-image", bad); err == nil || !strings.Contains(err.Error(), "--base-image=") {
			t.Errorf("%q: %v; want a refusal naming the flag", bad, err)
		}
	}
}

// own-image's inputs: a checkout with a Dockerfile (not a link), a tag
// that can name an image.
func TestCheckOwn(t *testing.T) {
	dir := t.TempDir()
	if err := CheckOwn(dir, "halebench:latest"); err == nil || !strings.Contains(err.Error(), "no Dockerfile there") {
		t.Errorf("no Dockerfile: %v", err)
	}
	linked := t.TempDir()
	real := filepath.Join(dir, "real")
	os.WriteFile(real, []byte("FROM x\n"), 0o644)
	os.Symlink(real, filepath.Join(linked, "Dockerfile"))
	if err := CheckOwn(linked, "halebench:latest"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a linked Dockerfile: %v", err)
	}
	os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte("FROM x\n"), 0o644)
	if err := CheckOwn(dir, "Not A Tag"); err == nil || !strings.Contains(err.Error(), "-t=") {
		t.Errorf("a bad tag: %v", err)
	}
	if err := CheckOwn(dir, "halebench:latest"); err != nil {
		t.Errorf("a good checkout: %v", err)
	}
}
