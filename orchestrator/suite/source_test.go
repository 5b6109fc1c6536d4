package suite

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A suite holding a symlink, a FIFO, a device or a file over the cap where a
// source is expected is refused with the file named, and nothing is read
// through it.
func TestHostileSourcesRefused(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "host-secret")
	os.WriteFile(secret, []byte("root:x:0:0\n"), 0o600)
	cases := []struct {
		name string
		make func(path string) error
		want string
	}{
		{"symlink to a host file", func(p string) error { return os.Symlink(secret, p) }, "symlink"},
		{"symlink to /dev/zero", func(p string) error { return os.Symlink("/dev/zero", p) }, "symlink"},
		{"fifo", func(p string) error { return syscall.Mkfifo(p, 0o644) }, "not a regular file"},
		{"device", func(p string) error { return syscall.Mknod(p, syscall.S_IFCHR|0o644, 1<<8|5) }, "not a regular file"},
		{"over the cap", func(p string) error { return os.WriteFile(p, make([]byte, SourceCap+1), 0o644) }, "cap"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, map[string]string{"benches/micro/fine.c": "int main(){}"})
			p := filepath.Join(dir, "benches", "micro", "bad.c")
			if err := c.make(p); err != nil {
				if os.Getenv("CI") == "true" {
					t.Fatalf("CI=true and cannot make a %s here (the test needs root for mknod): %v", c.name, err)
				}
				t.Skipf("cannot make a %s here (needs root for mknod): %v", c.name, err)
			}
			_, err := Load(dir)
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "bad.c") {
				t.Fatalf("Load: %v, want an error naming bad.c with %q", err, c.want)
			}
			if _, err := ReadSource(p); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("ReadSource: %v, want %q", err, c.want)
			}
		})
	}
	dir := t.TempDir()
	write(t, dir, map[string]string{"benches/micro/fine.c": "int main(){}"})
	os.Symlink(secret, filepath.Join(dir, "benches", "catalogue.json"))
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "symlink") {
		t.Fatalf("a symlinked catalogue.json: %v", err)
	}
}
