package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// ab stores its result under --results as results/ab-<stamp>-<id>.json:
// the very document --json prints, which show then prints as a grid (ab
// on the fake engine: what is tested is the verb's storing).
func TestABStoresItsResult(t *testing.T) {
	suite := tinySuite(t, false, "micro/fn_call.c")
	results := filepath.Join(t.TempDir(), "results")
	code, out, errOut := fakeRun(t, nil, "ab", "--suite="+suite, "--a-suite="+suite, "--b-suite="+suite, "--subject=c", "--lang=c",
		"--min-rounds=3", "--max-rounds=3", "--json", "--results="+results)
	if code != 0 {
		t.Fatalf("ab: exit %d\n%s", code, errOut)
	}
	files, _ := filepath.Glob(filepath.Join(results, "ab-*-*.json"))
	if len(files) != 1 {
		t.Fatalf("results/ holds %v; want one ab-<stamp>-<id>.json", files)
	}
	stored, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if string(stored) != out || !strings.Contains(out, `"kind": "ab"`) || !strings.Contains(out, `"sources_digest": "sha256:`) || !strings.Contains(errOut, "result: "+files[0]) {
		t.Errorf("the stored result differs from --json's, or is not said:\nstored:\n%s\nstdout:\n%s\nstderr:\n%s", stored, out, errOut)
	}
	code, grid, errOut := run(t, nil, "show", files[0])
	if code != 0 || !strings.Contains(grid, "fn_call") || !strings.Contains(grid, "ratio B/A") {
		t.Errorf("show of the stored result: exit %d\n%s\n%s", code, grid, errOut)
	}
}
