package image

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"golang.org/x/sys/unix"
)

// The clock gate is built by the toolchain image's compiler, which a given
// image chooses, and exported to this host to be hashed: left there as a
// link to a host file, a link to /dev/zero, a /dev/zero node or a FIFO, it
// is refused at once, naming it, and no host file's digest becomes the
// record.
func TestApartGateIsNotReadThroughALink(t *testing.T) {
	host := filepath.Join(t.TempDir(), "host-secret")
	if err := os.WriteFile(host, []byte("host secret"), 0o600); err != nil {
		t.Fatal(err)
	}
	gate := filepath.Base(wire.ClockGatePath)
	cases := []struct {
		name, want string
		make       func(p string) error
	}{
		{"a link to a host file", "not a regular file", func(p string) error { return os.Symlink(host, p) }},
		{"a link to /dev/zero", "not a regular file", func(p string) error { return os.Symlink("/dev/zero", p) }},
		{"a FIFO", "not a regular file", func(p string) error { return unix.Mkfifo(p, 0o644) }},
		{"a /dev/zero node", "not a regular file", func(p string) error { return unix.Mknod(p, unix.S_IFCHR|0o666, int(unix.Mkdev(1, 5))) }},
		{"the gate folder a link", "not a regular file", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := t.TempDir()
			if err := os.WriteFile(filepath.Join(out, "halebench-sampler"), []byte("sampler"), 0o755); err != nil {
				t.Fatal(err)
			}
			if c.make == nil {
				elsewhere := t.TempDir()
				os.Symlink(host, filepath.Join(elsewhere, gate))
				if err := os.Symlink(elsewhere, filepath.Join(out, "gate")); err != nil {
					t.Fatal(err)
				}
			} else {
				os.Mkdir(filepath.Join(out, "gate"), 0o755)
				if err := c.make(filepath.Join(out, "gate", gate)); err != nil {
					if os.Getenv("CI") == "true" {
						t.Fatalf("CI=true and cannot make %s (mknod needs root): %v", c.name, err)
					}
					t.Skipf("cannot make %s here (mknod needs root): %v", c.name, err)
				}
			}
			done := make(chan struct{})
			var got map[string]string
			var err error
			go func() { got, err = apartDigests(out, true); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Second):
				t.Fatalf("hashing the exported gate still blocked after 10 s")
			}
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "gate") {
				t.Fatalf("apartDigests = %v, %v; want a refusal naming the gate", got, err)
			}
		})
	}
	// Each file is also opened below out never through a link at any
	// level: a gate swapped for a link after the walk is refused by the
	// open itself.
	out := t.TempDir()
	os.WriteFile(filepath.Join(out, "halebench-sampler"), []byte("sampler"), 0o755)
	elsewhere := t.TempDir()
	os.WriteFile(filepath.Join(elsewhere, gate), []byte("host secret"), 0o600)
	os.Symlink(elsewhere, filepath.Join(out, "gate"))
	if _, err := hashApartFiles(out, true); err == nil || !strings.Contains(err.Error(), "lies behind a symlink") {
		t.Fatalf("the gate behind a linked folder: %v, want it refused", err)
	}
	// An honest export: the sampler and the gate hashed; a gate that did
	// not build (only its note) leaves the gate out of the record.
	out = t.TempDir()
	os.WriteFile(filepath.Join(out, "halebench-sampler"), []byte("sampler"), 0o755)
	os.Mkdir(filepath.Join(out, "gate"), 0o755)
	os.WriteFile(filepath.Join(out, "gate", gate), []byte("gate"), 0o644)
	got, err := apartDigests(out, true)
	if err != nil || got[SamplerPath] != sha256Hex([]byte("sampler")) || got[wire.ClockGatePath] != sha256Hex([]byte("gate")) {
		t.Fatalf("an honest export: %v, %v", got, err)
	}
	os.Remove(filepath.Join(out, "gate", gate))
	os.WriteFile(filepath.Join(out, "gate", gate+".build_failed"), []byte("no cc"), 0o644)
	if got, err := apartDigests(out, true); err != nil || got[wire.ClockGatePath] != "" {
		t.Fatalf("a gate that did not build: %v, %v", got, err)
	}
}
