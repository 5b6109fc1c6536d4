package main

import (
	"archive/tar"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// storedAB runs a C-only ab of fn_call between two suites whose fn_call.c
// differ by a comment (so each side has a bench image of its own) and
// returns both suites and the stored result's path.
func storedAB(t *testing.T) (a, b, path string) {
	t.Helper()
	a, b = tinySuite(t, false, "micro/fn_call.c"), tinySuite(t, false, "micro/fn_call.c")
	f, err := os.OpenFile(filepath.Join(b, "benches", "micro", "fn_call.c"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("/* side B */\n")
	f.Close()
	results := filepath.Join(t.TempDir(), "results")
	code, _, errOut := run(t, nil, "ab", "--suite="+a, "--a-suite="+a, "--b-suite="+b, "--subject=c", "--lang=c",
		"--min-rounds=3", "--max-rounds=3", "--quiet", "--results="+results)
	if code != 0 {
		t.Fatalf("ab: exit %d\n%s", code, errOut)
	}
	files, _ := filepath.Glob(filepath.Join(results, "ab-*.json"))
	if len(files) != 1 {
		t.Fatalf("results/ holds %v", files)
	}
	return a, b, files[0]
}

// A stored ab result, made by ab on the engine, is compared with itself,
// bundled with both sides' images and suites, and refused by replay for
// what it is; the bundle's manifest names its kind and every image.
func TestCompareAndBundleAStoredABResult(t *testing.T) {
	enginetest.Connect(t)
	a, b, path := storedAB(t)
	if code, out, errOut := run(t, nil, "compare", path, path); code != 0 || !strings.Contains(out, "fn_call") || !strings.Contains(out, "×") {
		t.Fatalf("compare of the stored ab result with itself: exit %d\n%s\n%s", code, out, errOut)
	}
	bundle := filepath.Join(t.TempDir(), "e.tar")
	code, out, errOut := run(t, nil, "bundle", "-o", bundle, "--suite="+a, "--b-suite="+b, path)
	if code != 0 {
		t.Fatalf("bundle: exit %d\n%s\n%s", code, out, errOut)
	}
	files := tarFiles(t, bundle)
	var m struct {
		Kind   string            `json:"kind"`
		Images map[string]string `json:"images"`
	}
	if err := json.Unmarshal(files["manifest.json"], &m); err != nil || m.Kind != "ab" {
		t.Fatalf("manifest (%v): %s", err, files["manifest.json"])
	}
	var res report.Result
	if err := json.Unmarshal(files["report.json"], &res); err != nil || len(res.Sides) != 2 {
		t.Fatalf("report.json (%v)", err)
	}
	// Every image a side names is in the manifest, and nothing else: the
	// base, the C toolchain and each side's bench image.
	want := map[string]string{}
	for _, sd := range res.Sides {
		bi, tc := sd.BenchImages["c"], sd.Images["c"]
		want[bi.Ref], want[sd.Base.Ref], want[tc.Ref] = bi.Digest, sd.Base.ID, tc.Digest
	}
	if !reflect.DeepEqual(m.Images, want) || !strings.Contains(out, fmt.Sprintf("%d images", len(want))) {
		t.Errorf("the manifest's images %v, the sides' %v; bundle said %s", m.Images, want, out)
	}
	if res.Sides[0].BenchImages["c"].Digest == res.Sides[1].BenchImages["c"].Digest {
		t.Error("both sides ran one bench image: the test compares nothing")
	}
	if len(files["suite/benches/micro/fn_call.c"]) == 0 || !strings.Contains(string(files["suite-b/benches/micro/fn_call.c"]), "side B") {
		t.Errorf("the bundle lacks a side's sources: %v", keys(files))
	}
	code, _, errOut = run(t, nil, "replay", bundle)
	if code != 2 || !strings.Contains(errOut, "is an ab result") || !strings.Contains(errOut, "replay reruns a run report's benches") {
		t.Errorf("replay of an ab bundle: exit %d\n%s", code, errOut)
	}
}

// verify rebuilds a stored ab result's images with no cache — the base
// and each toolchain once, each side's bench image from its own suite —
// and finds every digest equal.
func TestSlowVerifyAStoredABResult(t *testing.T) {
	enginetest.Slow(t)
	enginetest.Connect(t)
	a, b, path := storedAB(t)
	code, out, errOut := run(t, nil, "verify", "--lang=c", "--suite="+a, "--b-suite="+b, path)
	if code != 0 || strings.Count(out, "halebench/bench-c") != 2 || strings.Count(out, "halebench/toolchain-c") != 1 {
		t.Fatalf("verify of the stored ab result: exit %d\n%s\n%s", code, out, errOut)
	}
}

// tarFiles are the regular files of the tar at path (not images.tar), by
// name.
func tarFiles(t *testing.T, path string) map[string][]byte {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]byte{}
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Name == "images.tar" {
			out[h.Name] = []byte{1}
			continue
		}
		data, _ := io.ReadAll(tr)
		out[h.Name] = data
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
