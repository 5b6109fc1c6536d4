//go:build linux

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The check passes only when every listed file is a regular file (not a
// link) with the recorded digest.
func TestCheckTrusted(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "sampler")
	os.WriteFile(good, []byte("the sampler"), 0o755)
	sum := sha256.Sum256([]byte("the sampler"))
	want := hex.EncodeToString(sum[:])
	link := filepath.Join(dir, "link")
	os.Symlink(good, link)
	cases := []struct {
		name, spec, err string
	}{
		{"nothing asked", "", ""},
		{"same", good + "=" + want, ""},
		{"changed", good + "=" + strings.Repeat("0", 64), "the build recorded " + strings.Repeat("0", 64)},
		{"missing", filepath.Join(dir, "gone") + "=" + want, "no such file"},
		{"a link", link + "=" + want, "too many levels of symbolic links"},
		{"a folder", dir + "=" + want, "not a regular file"},
		{"malformed", "sampler=" + want, "not /PATH=SHA256"},
	}
	for _, c := range cases {
		err := checkTrusted(c.spec)
		if (c.err == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.err)) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.err)
		}
	}
	if s := startSession(65534, 65534, good+"="+strings.Repeat("0", 64)); !strings.Contains(s.run(options{iters: 1, argv: []string{"true"}}).Detail, "not the ones its build made") {
		t.Errorf("a failed check did not refuse the job")
	}
}
