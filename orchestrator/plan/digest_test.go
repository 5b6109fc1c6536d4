package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestDigestNamesEachFileByItsName(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.c"), filepath.Join(dir, "b.go")
	for p, text := range map[string]string{a: "int main(){}\n", b: "package main\n"} {
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Digest([]Source{{Name: "A x c", Path: a}, {Name: "B x go", Path: b}})
	if err != nil {
		t.Fatal(err)
	}
	h := sha256.New()
	fmt.Fprintf(h, "A x c %x\n", sha256.Sum256([]byte("int main(){}\n")))
	fmt.Fprintf(h, "B x go %x\n", sha256.Sum256([]byte("package main\n")))
	if want := "sha256:" + hex.EncodeToString(h.Sum(nil)); got != want {
		t.Fatalf("Digest = %s, want %s", got, want)
	}
	// The name, not the path, is what is hashed: a suite checked out
	// elsewhere digests alike.
	moved := filepath.Join(t.TempDir(), "a.c")
	if err := os.WriteFile(moved, []byte("int main(){}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := Digest([]Source{{Name: "A x c", Path: moved}, {Name: "B x go", Path: b}})
	if err != nil || again != got {
		t.Fatalf("same files elsewhere: %s, %v; want %s", again, err, got)
	}
	if err := os.WriteFile(b, []byte("package main // changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	changed, err := Digest([]Source{{Name: "A x c", Path: a}, {Name: "B x go", Path: b}})
	if err != nil || changed == got {
		t.Fatalf("a changed file kept the digest %s (%v)", changed, err)
	}
}

func TestDigestRefusesWhatASuiteMayNotHold(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.c")
	if err := os.WriteFile(target, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.c")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if _, err := Digest([]Source{{Name: "link", Path: link}}); err == nil {
		t.Fatal("a symlinked source was digested; want the suite's refusal")
	}
	if _, err := Digest([]Source{{Name: "gone", Path: filepath.Join(dir, "gone.c")}}); err == nil {
		t.Fatal("a missing source was digested")
	}
}
