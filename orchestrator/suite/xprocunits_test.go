package suite

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A suite whose xproc/ folder, a language's folder in it, or a program in
// it is a link is refused naming that path; a plain one, or none, is not.
func TestCheckXprocRefusesLinks(t *testing.T) {
	outside := t.TempDir()
	os.MkdirAll(filepath.Join(outside, "hale"), 0o755)
	os.WriteFile(filepath.Join(outside, "xproc.c"), []byte("int main(void) { return 0; }\n"), 0o644)
	plain := func(t *testing.T) string {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, "xproc", "hale"), 0o755)
		os.WriteFile(filepath.Join(dir, "xproc", "xproc.go"), []byte("package main\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "xproc", "hale", "small_reader.hl"), []byte("fn main() {}\n"), 0o644)
		return dir
	}
	cases := []struct {
		name  string
		make  func(dir string) string // the path to be named, "" for none
		wants string
	}{
		{"plain", func(string) string { return "" }, ""},
		{"none", func(dir string) string { os.RemoveAll(filepath.Join(dir, "xproc")); return "" }, ""},
		{"xproc/ a link", func(dir string) string {
			p := filepath.Join(dir, "xproc")
			os.RemoveAll(p)
			os.Symlink(outside, p)
			return p
		}, "is a symlink"},
		{"xproc/hale a link", func(dir string) string {
			p := filepath.Join(dir, "xproc", "hale")
			os.RemoveAll(p)
			os.Symlink(filepath.Join(outside, "hale"), p)
			return p
		}, "is a symlink"},
		{"a program a link", func(dir string) string {
			p := filepath.Join(dir, "xproc", "xproc.c")
			os.Symlink(filepath.Join(outside, "xproc.c"), p)
			return p
		}, "is a symlink"},
		{"a FIFO", func(dir string) string {
			p := filepath.Join(dir, "xproc", "hale", "large_reader.hl")
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
			return p
		}, "not a regular file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := plain(t)
			named := c.make(dir)
			err := CheckXproc(dir)
			if c.wants == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), named+" ") || !strings.Contains(err.Error(), c.wants) {
				t.Fatalf("err %v, want it to name %s and say %q", err, named, c.wants)
			}
		})
	}
}
