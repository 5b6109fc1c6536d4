package lifecycle

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A lock file planted as a symlink is not followed: its target is neither
// created nor written.
func TestLockRefusesSymlink(t *testing.T) {
	dir := t.TempDir()
	os.Chmod(dir, 0o700)
	target := filepath.Join(t.TempDir(), "victim")
	if err := os.WriteFile(target, []byte("precious\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, "cpus.lock")); err != nil {
		t.Fatal(err)
	}
	unlock, err := lockIn(context.Background(), io.Discard, dir, time.Second)
	if err == nil {
		unlock()
		t.Fatal("a symlinked lock was taken")
	}
	if !strings.Contains(err.Error(), "symlink") {
		t.Fatalf("error %v does not say why", err)
	}
	if b, _ := os.ReadFile(target); string(b) != "precious\n" {
		t.Fatalf("the symlink's target was written: %q", b)
	}
	// A dangling one is not created through either.
	dangling := filepath.Join(t.TempDir(), "made-through-link")
	os.Remove(filepath.Join(dir, "cpus.lock"))
	os.Symlink(dangling, filepath.Join(dir, "cpus.lock"))
	if _, err := lockIn(context.Background(), io.Discard, dir, time.Second); err == nil {
		t.Fatal("a dangling symlinked lock was taken")
	}
	if _, err := os.Lstat(dangling); err == nil {
		t.Fatal("the lock was created through a dangling symlink")
	}
}

// A lock directory that is a symlink, or that others may write, is refused.
func TestLockDirMustBePrivate(t *testing.T) {
	open := t.TempDir()
	os.Chmod(open, 0o777)
	if err := checkPrivateDir(open); err == nil || !strings.Contains(err.Error(), "writable by others") {
		t.Fatalf("a 0777 directory: %v", err)
	}
	private := t.TempDir()
	os.Chmod(private, 0o700)
	link := filepath.Join(t.TempDir(), "link")
	os.Symlink(private, link)
	if err := checkPrivateDir(link); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Fatalf("a symlinked directory: %v", err)
	}
	if err := checkPrivateDir(private); err != nil {
		t.Fatal(err)
	}
}

// A held lock is waited for, the holder named, and given up after the wait.
func TestLockWaitTimesOutNamingHolder(t *testing.T) {
	dir := t.TempDir()
	os.Chmod(dir, 0o700)
	unlock, err := lockIn(context.Background(), io.Discard, dir, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	var said strings.Builder
	_, err = lockIn(context.Background(), &said, dir, time.Second)
	if err == nil {
		t.Fatal("a held lock was taken twice")
	}
	holder := "pid " + strconv.Itoa(os.Getpid())
	if !strings.Contains(err.Error(), holder) || !strings.Contains(said.String(), holder) {
		t.Fatalf("the holder is not named: %v / %q", err, said.String())
	}
}
