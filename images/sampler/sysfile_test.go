//go:build linux

package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

func TestDirNamesListsEntriesNotDots(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []string{"a", "b.txt"} {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/nonexistent", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 600; i++ { // more than one getdents buffer
		if err := os.WriteFile(filepath.Join(dir, "f"+strings.Repeat("x", 40)+strconv.Itoa(i)), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	names, err := dirNames(dir)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadDir(dir)
	if len(names) != len(want) {
		t.Fatalf("dirNames gave %d names, os.ReadDir %d", len(names), len(want))
	}
	sort.Strings(names)
	for i, e := range want {
		if names[i] != e.Name() {
			t.Fatalf("name %d: %q, want %q", i, names[i], e.Name())
		}
	}
	if names, err := dirNames(filepath.Join(dir, "missing")); names != nil || err != nil {
		t.Fatalf("a missing directory: %v %v, want empty", names, err)
	}
	if _, err := dirNames(filepath.Join(dir, "a")); err == nil {
		t.Fatal("a regular file listed as a directory")
	}
}

func TestReadAllAndWriteFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	big := bytes.Repeat([]byte("0123456789"), 300) // over readAll's first buffer
	if err := os.WriteFile(p, big, 0o600); err != nil {
		t.Fatal(err)
	}
	if b, err := readAll(p); err != nil || !bytes.Equal(b, big) {
		t.Fatalf("readAll: %d bytes, %v; want %d", len(b), err, len(big))
	}
	if err := writeFile(p, "42\n"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); !bytes.HasPrefix(b, []byte("42\n")) {
		t.Fatalf("after writeFile: %q", b[:8])
	}
	if err := writeFile(filepath.Join(dir, "new"), "1"); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("writeFile to a missing file: %v, want it not created", err)
	}
	if _, err := readAll(filepath.Join(dir, "new")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("readAll of a missing file: %v", err)
	}
}
