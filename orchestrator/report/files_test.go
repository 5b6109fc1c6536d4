package report

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A stored report is an input like any other: a symlink, a FIFO and an
// oversized file are refused without being read through (a FIFO would
// block a plain read forever).
func TestReadBoundedRefusesWhatIsNoReport(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "run.json")
	if err := WriteFile(real, &Report{Schema: Schema}); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadBounded(real); err != nil {
		t.Fatalf("a report WriteFile wrote: %v", err)
	}
	if st, _ := os.Stat(real); st.Mode().Perm() != 0o644 {
		t.Errorf("report mode %v, want 0644", st.Mode().Perm())
	}
	link := filepath.Join(dir, "link.json")
	os.Symlink(real, link)
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, []byte(strings.Repeat(" ", MaxFileBytes+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{link: "symlink", fifo: "not a regular file", big: "over 64 MiB"} {
		if _, err := ReadBounded(name); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want an error saying %q", filepath.Base(name), err, want)
		}
	}
	left, _ := filepath.Glob(filepath.Join(dir, "*.tmp-*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
