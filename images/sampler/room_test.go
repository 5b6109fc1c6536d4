//go:build linux

package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// emptyDir removes what a bench left, nested directories and links
// included, keeps what is the sampler's, and never follows a link out.
func TestEmptyDir(t *testing.T) {
	room, outside := t.TempDir(), t.TempDir()
	precious := filepath.Join(outside, "precious")
	if err := os.WriteFile(precious, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(room, ".local/lib/python3.13/site-packages"), 0o755))
	must(os.WriteFile(filepath.Join(room, ".local/lib/python3.13/site-packages/x.pth"), []byte("import os"), 0o644))
	must(os.Symlink(outside, filepath.Join(room, "link")))
	must(os.Mkdir(filepath.Join(room, "locked"), 0o000))
	must(os.Mkdir(filepath.Join(room, "keep"), 0o755))
	if err := emptyDir(room, map[string]bool{"keep": true}); err != nil {
		t.Fatal(err)
	}
	left, _ := dirNames(room)
	if !reflect.DeepEqual(left, []string{"keep"}) {
		t.Fatalf("left %v, want [keep]", left)
	}
	if _, err := os.Stat(precious); err != nil {
		t.Fatalf("a link was followed out of the room: %v", err)
	}
	if err := emptyDir(filepath.Join(room, "missing"), nil); err != nil {
		t.Fatalf("a directory the image lacks: %v", err)
	}
}

func TestSysvIDs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shm")
	table := "       key      shmid perms                  size  cpid  lpid nattch   uid   gid  cuid  cgid\n" +
		"1212304470          3   666              16777216    40    40      0 65534 65534 65534 65534\n" +
		"         0         12   600                  4096     7     7      1     0     0     0     0\n"
	if err := os.WriteFile(path, []byte(table), 0o644); err != nil {
		t.Fatal(err)
	}
	ids, err := sysvIDs(path)
	if err != nil || !reflect.DeepEqual(ids, []int{3, 12}) {
		t.Fatalf("ids %v %v, want [3 12]", ids, err)
	}
	if ids, err := sysvIDs(filepath.Join(t.TempDir(), "none")); err != nil || ids != nil {
		t.Fatalf("a kernel without System V IPC: %v %v", ids, err)
	}
}

// BenchmarkRoomCheckEmpty is the part of cleanRoom a sample pays when the
// bench left nothing: listing five empty directories and reading the three
// System V tables (read only here: nothing of the host is removed).
//
// go test -run=^$ -bench=RoomCheckEmpty ./images/sampler
func BenchmarkRoomCheckEmpty(b *testing.B) {
	var dirs []string
	for i := 0; i < 5; i++ {
		dirs = append(dirs, b.TempDir())
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, d := range dirs {
			if err := emptyDir(d, nil); err != nil {
				b.Fatal(err)
			}
		}
		for _, k := range sysvKinds {
			if _, err := sysvIDs(k.list); err != nil {
				b.Fatal(err)
			}
		}
	}
}
