package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// maxTracked is the largest file the repository may hold: a compiled
// binary, a report folder or a data set committed by mistake is over it.
const maxTracked = 1 << 20

// No file the index holds is over 1 MiB: the size of each staged blob (what
// a commit takes, whether or not the work tree still has it). Skipped,
// saying why, outside a git checkout (a tarball of the tree); never under
// CI=true.
func TestNoLargeTrackedFile(t *testing.T) {
	list := exec.Command("git", "-C", "../..", "ls-files", "-z", "--stage")
	out, err := list.Output()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and git ls-files failed here: %v (is this not a git checkout?)", err)
		}
		t.Skipf("not a git checkout, or no git (%v): nothing to check the index of", err)
	}
	paths := map[string][]string{} // blob → paths
	var blobs bytes.Buffer
	for _, e := range bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0}) {
		meta, path, ok := strings.Cut(string(e), "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 3 {
			t.Fatalf("git ls-files --stage: %q", e)
		}
		if f[0] == "160000" { // a submodule: a commit, not a blob
			continue
		}
		if paths[f[1]] == nil {
			fmt.Fprintln(&blobs, f[1])
		}
		paths[f[1]] = append(paths[f[1]], path)
	}
	if len(paths) < 50 {
		t.Fatalf("the index lists %d files: is this the halebench checkout?", len(paths))
	}
	check := exec.Command("git", "-C", "../..", "cat-file", "--batch-check=%(objectname) %(objectsize)")
	check.Stdin = &blobs
	sizes, err := check.Output()
	if err != nil {
		t.Fatalf("git cat-file --batch-check: %v", err)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(sizes)), "\n") {
		f := strings.Fields(l)
		if len(f) != 2 {
			t.Fatalf("git cat-file --batch-check: %q", l)
		}
		n, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			t.Fatalf("git cat-file --batch-check: %q", l)
		}
		if n > maxTracked {
			t.Errorf("%s is tracked and %d bytes, over 1 MiB: untrack it (git rm --cached), and .gitignore it if it is a build output", strings.Join(paths[f[0]], ", "), n)
		}
	}
}
