package subject

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A checkout is anyone's: a Cargo.toml that is a symlink to a host file,
// or a FIFO, is refused, never read (nor waited on) on this host, in the
// tree and in a vendor folder; copying the tree keeps the link a link.
func TestCheckoutLinksAreNotRead(t *testing.T) {
	host := filepath.Join(t.TempDir(), "host-secret.toml")
	write(t, host, "[workspace.package]\nversion = \"host-secret\"\n[package]\nname = \"host-secret\"\nversion = \"1.0.0\"\n")
	tree := t.TempDir()
	if err := os.Symlink(host, filepath.Join(tree, "Cargo.toml")); err != nil {
		t.Fatal(err)
	}
	v, err := workspaceVersion(filepath.Join(tree, "Cargo.toml"))
	if err == nil || v != "" || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("a linked Cargo.toml: version %q, %v; want it refused", v, err)
	}
	fifo := filepath.Join(t.TempDir(), "Cargo.toml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := workspaceVersion(fifo); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a FIFO Cargo.toml: %v; want it refused without blocking", err)
	}

	vendor := t.TempDir()
	write(t, filepath.Join(vendor, "good", "Cargo.toml"), "[package]\nname = \"good\"\nversion = \"0.1.0\"\n")
	os.MkdirAll(filepath.Join(vendor, "linked"), 0o755)
	if err := os.Symlink(host, filepath.Join(vendor, "linked", "Cargo.toml")); err != nil {
		t.Fatal(err)
	}
	crates, err := scanVendor(vendor)
	if err != nil || len(crates) != 1 || crates[0].Name != "good" {
		t.Errorf("scanVendor = %+v, %v; want only the crate whose Cargo.toml is a file", crates, err)
	}

	dst := filepath.Join(t.TempDir(), "copy")
	if err := copyTree(tree, dst); err != nil {
		t.Fatal(err)
	}
	if target, err := os.Readlink(filepath.Join(dst, "Cargo.toml")); err != nil || target != host {
		t.Errorf("the copy's Cargo.toml: link to %q, %v; want the link kept, not the host file copied", target, err)
	}
}
