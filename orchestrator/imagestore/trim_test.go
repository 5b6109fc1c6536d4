package imagestore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// prune --cache-dir refuses --dry-run and a negative age before it looks
// at the folder, and trims an empty folder to nothing removed.
func TestTrimRefusesFirst(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		age    time.Duration
		dryRun bool
		want   string
	}{
		{time.Hour, true, "--dry-run is not offered with --cache-dir"},
		{-time.Hour, false, "--cache-dir-age must not be negative"},
	} {
		if _, err := Trim(dir+"/absent", c.age, c.dryRun); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("age %s, dry run %v: %v; want %q", c.age, c.dryRun, err, c.want)
		}
	}
	if p, err := Trim(dir, time.Hour, false); err != nil || p != (Pruned{}) {
		t.Errorf("an empty folder: %+v %v", p, err)
	}
	// A mistyped folder is refused, and not made; a file or a link is no
	// folder to trim.
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	link := filepath.Join(dir, "link")
	os.Symlink(t.TempDir(), link)
	for path, want := range map[string]string{dir + "/typo": "no such folder", file: "is not a folder (a file)", link: "is not a folder (a link)"} {
		if _, err := Trim(path, time.Hour, false); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want %q", path, err, want)
		}
	}
	if _, err := os.Lstat(dir + "/typo"); !os.IsNotExist(err) {
		t.Errorf("the mistyped folder was made: %v", err)
	}
}
