//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A build_failed note the compile left as a link, a FIFO or a huge file: a
// link's target is never read, a FIFO does not block, a big note is read to
// its last noteCap bytes; a missing note is no note.
func TestReadNoteTakesOnlyARegularFile(t *testing.T) {
	dir := t.TempDir()
	secret := filepath.Join(dir, "shadow")
	os.WriteFile(secret, []byte("root:SECRET-HASH:19000:0:99999:7:::\n"), 0o600)
	link := filepath.Join(dir, "tiny.build_failed")
	os.Symlink(secret, link)
	fifo := filepath.Join(dir, "fifo.build_failed")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.build_failed")
	os.WriteFile(big, []byte(strings.Repeat("x", 3*noteCap)+"the last line\n"), 0o644)
	plain := filepath.Join(dir, "plain.build_failed")
	os.WriteFile(plain, []byte("error: expected ;\n"), 0o644)

	if text, ok := readNote(link); !ok || strings.Contains(text, "SECRET") || !strings.Contains(text, "not a regular file") {
		t.Errorf("a link: %v %q", ok, text)
	}
	if text, ok := readNote(fifo); !ok || !strings.Contains(text, "not a regular file") {
		t.Errorf("a FIFO: %v %q", ok, text)
	}
	if text, ok := readNote(big); !ok || len(text) != noteCap || !strings.HasSuffix(text, "the last line\n") {
		t.Errorf("a big note: %v, %d bytes", ok, len(text))
	}
	if text, ok := readNote(plain); !ok || text != "error: expected ;\n" {
		t.Errorf("a plain note: %v %q", ok, text)
	}
	if _, ok := readNote(filepath.Join(dir, "none.build_failed")); ok {
		t.Error("a missing note was read as there")
	}
}
