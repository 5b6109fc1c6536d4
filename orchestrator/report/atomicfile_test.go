package report

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func put(s string) func(io.Writer) error {
	return func(w io.Writer) error { _, err := io.WriteString(w, s); return err }
}

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.html")
	if err := AtomicWrite(p, 0o644, put("one")); err != nil {
		t.Fatal(err)
	}
	if err := AtomicWrite(p, 0o644, put("two")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); string(b) != "two" {
		t.Fatalf("content %q", b)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o644 {
		t.Errorf("mode %v", st.Mode())
	}
	// A failed write leaves the old file and no temporary one.
	if err := AtomicWrite(p, 0o644, func(io.Writer) error { return errors.New("render failed") }); err == nil || !strings.Contains(err.Error(), "render failed") {
		t.Fatalf("failed write: %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "two" {
		t.Errorf("after a failed write: %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}
}

// A symlink at the target (to a file someone wants overwritten), or at the
// old fixed temporary names, is never written through; a FIFO at the
// target is refused without blocking.
func TestWriteNeverFollowsALink(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim")
	os.WriteFile(victim, []byte("keep"), 0o644)
	p := filepath.Join(dir, "report.html")
	for _, planted := range []string{p + ".tmp", p + ".partial", filepath.Join(dir, ".report.html.tmp-1")} {
		if err := os.Symlink(victim, planted); err != nil {
			t.Fatal(err)
		}
	}
	if err := AtomicWrite(p, 0o644, put("page")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Fatalf("a planted temporary name was followed: victim now %q", b)
	}
	link := filepath.Join(dir, "linked.html")
	os.Symlink(victim, link)
	if err := AtomicWrite(link, 0o644, put("evil")); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("a linked target: %v", err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep" {
		t.Fatalf("the link was followed: victim now %q", b)
	}
	fifo := filepath.Join(dir, "fifo")
	syscall.Mkfifo(fifo, 0o644)
	if err := AtomicWrite(fifo, 0o644, put("x")); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a FIFO target: %v", err)
	}
}
