//go:build linux

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A device node in a mount that could not be sealed is found and named,
// with its numbers and mode; a folder without one has none.
func TestImageNodesFindsADeviceNode(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "opt", "deep"), 0o755)
	os.WriteFile(filepath.Join(dir, "opt", "plain"), []byte("x"), 0o644)
	if nodes := imageNodes([]string{dir}); len(nodes) != 0 {
		t.Fatalf("nodes in a folder without any: %v", nodes)
	}
	node := filepath.Join(dir, "opt", "deep", "full")
	if err := syscall.Mknod(node, syscall.S_IFCHR|0o666, 1<<8|7); err != nil {
		skipUnlessCI(t, fmt.Sprintf("mknod needs root, as the sampler has: %v", err))
	}
	os.Chmod(node, 0o666)
	nodes := imageNodes([]string{dir})
	if len(nodes) != 1 || nodes[0] != node+" (char 1:7, mode 0666)" {
		t.Fatalf("nodes = %q", nodes)
	}
}

// Mount points come out of mountinfo's escapes; /proc, /sys and /dev (and
// below) are the engine's; a bind remount keeps a mount's own flags.
func TestMountTableHelpers(t *testing.T) {
	if got := unescapeMount(`/a\040b\011c`); got != "/a b\tc" {
		t.Errorf("unescape: %q", got)
	}
	for p, want := range map[string]bool{"/proc": true, "/dev/shm": true, "/sys/fs/cgroup": true, "/": false, "/devices": false, "/opt": false} {
		if engineMade(p) != want {
			t.Errorf("engineMade(%s) = %v", p, !want)
		}
	}
	// Below /dev a mount is the engine's only as what the engine mounts
	// there: an image VOLUME at /dev/hbvol (a bind of the volume Docker
	// filled from the image, nodes included) is image content, as is a
	// tmpfs where the engine puts devpts.
	for _, c := range []struct {
		m    mountEntry
		want bool
	}{
		{mountEntry{point: "/dev", fstype: "tmpfs"}, true},
		{mountEntry{point: "/dev/pts", fstype: "devpts"}, true},
		{mountEntry{point: "/dev/shm", fstype: "tmpfs"}, true},
		{mountEntry{point: "/dev/mqueue", fstype: "mqueue"}, true},
		{mountEntry{point: "/dev/hbvol", fstype: "ext4"}, false},
		{mountEntry{point: "/dev/hbvol", fstype: "tmpfs"}, false},
		{mountEntry{point: "/dev/pts", fstype: "ext4"}, false},
		{mountEntry{point: "/dev", fstype: "overlay"}, false},
		{mountEntry{point: "/proc/kcore", fstype: "tmpfs"}, true},
		{mountEntry{point: "/opt", fstype: "overlay"}, false},
	} {
		if engineMount(c.m) != c.want {
			t.Errorf("engineMount(%s %s) = %v", c.m.point, c.m.fstype, !c.want)
		}
	}
	fl := mountFlags(map[string]bool{"ro": true, "relatime": true, "nosuid": true})
	if fl != syscall.MS_RDONLY|syscall.MS_RELATIME {
		t.Errorf("flags %#x", fl)
	}
	mounts, err := readMounts()
	if err != nil || len(mounts) == 0 || !strings.HasPrefix(mounts[0].point, "/") || mounts[0].fstype == "" {
		t.Errorf("this process's mount table: %v %v", mounts, err)
	}
}
