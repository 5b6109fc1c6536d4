package hostfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestOpenRefusesWhatIsNotAPlainFileBelowRoot: a link at any level of the
// path, a FIFO, a character device and a folder are refused at once,
// naming the file, and nothing of the host file a link names is read.
func TestOpenRefusesWhatIsNotAPlainFileBelowRoot(t *testing.T) {
	root := t.TempDir()
	host := filepath.Join(t.TempDir(), "host-secret")
	must(t, os.WriteFile(host, []byte("host secret"), 0o600))
	outside := filepath.Dir(host)
	must(t, os.MkdirAll(filepath.Join(root, "gate"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "gate", "ok.so"), []byte("honest"), 0o644))
	must(t, os.Symlink(host, filepath.Join(root, "gate", "link.so")))
	must(t, os.Symlink(outside, filepath.Join(root, "linkdir")))
	must(t, os.Symlink("gate", filepath.Join(root, "innerlink")))
	must(t, unix.Mkfifo(filepath.Join(root, "gate", "fifo.so"), 0o644))
	must(t, os.Mkdir(filepath.Join(root, "gate", "dir.so"), 0o755))
	zero := filepath.Join(root, "gate", "zero.so")
	if err := unix.Mknod(zero, unix.S_IFCHR|0o666, int(unix.Mkdev(1, 5))); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("mknod of a /dev/zero node: %v (CI runs as root)", err)
		}
		t.Logf("no /dev/zero node (mknod: %v, not root); using the host's /dev/zero through a link only", err)
		zero = ""
	}
	must(t, os.Symlink("/dev/zero", filepath.Join(root, "gate", "devzero-link.so")))
	cases := []struct {
		rel, want string
	}{
		{"gate/link.so", "is a symlink (-> " + host + ")"},
		{"linkdir/host-secret", "lies behind a symlink (" + filepath.Join(root, "linkdir") + " -> " + outside + ")"},
		{"innerlink/ok.so", "lies behind a symlink"},
		{"gate/devzero-link.so", "is a symlink (-> /dev/zero)"},
		{"gate/fifo.so", "a FIFO"},
		{"gate/dir.so", "a folder"},
		{"../" + filepath.Base(outside) + "/host-secret", "not a path below"},
		{host, "not a path below"},
	}
	if zero != "" {
		cases = append(cases, struct{ rel, want string }{"gate/zero.so", "a character device"})
	}
	for _, c := range cases {
		t.Run(c.rel, func(t *testing.T) {
			done := make(chan struct{})
			var data []byte
			var err error
			go func() { data, err = Read(root, c.rel, 1<<20); close(done) }()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatalf("Read(%s) still blocked after 30 s", c.rel)
			}
			if err == nil || !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Read(%s) = %q, %v; want a refusal saying %q", c.rel, data, err, c.want)
			}
			if !strings.Contains(err.Error(), filepath.Base(c.rel)) {
				t.Errorf("the refusal does not name the file: %v", err)
			}
			if strings.Contains(string(data), "secret") {
				t.Errorf("the host file was read: %q", data)
			}
		})
	}
	if got, err := Read(root, "gate/ok.so", 1<<20); err != nil || string(got) != "honest" {
		t.Fatalf("a regular file below root: %q, %v", got, err)
	}
	if _, err := SHA256(root, "gate/ok.so", 3); !errors.Is(err, ErrRefused) {
		t.Fatalf("a file over its cap: %v, want refused", err)
	}
	if _, err := walkOpen(root, "innerlink/ok.so"); err == nil {
		t.Fatalf("the walk without openat2 followed a folder link")
	}
	if _, err := walkOpen(root, "gate/link.so"); err == nil {
		t.Fatalf("the walk without openat2 followed a file link")
	}
}

// walkOpen is openBeneath's fallback, tried on its own.
func walkOpen(root, rel string) (int, error) {
	dfd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return -1, err
	}
	defer unix.Close(dfd)
	fd, err := walk(dfd, rel)
	if err == nil {
		unix.Close(fd)
	}
	return fd, err
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
