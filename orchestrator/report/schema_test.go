package report

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Reports written before the report had types of its own (by the code of
// commit 553bb56: a fake run, and every field of the schema filled) read
// and write back byte for byte: the schema did not change, so its version
// did not move and `show` reads them as it did.
func TestReportsFromBeforeRoundTrip(t *testing.T) {
	for _, path := range []string{"testdata/before-h2/run-fake.json", "testdata/before-h2/filled.json"} {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var r Report
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&r); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out, err := json.MarshalIndent(&r, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if got := string(out) + "\n"; got != string(data) {
			t.Errorf("%s does not round-trip (%d bytes in, %d out)", path, len(data), len(got))
		}
	}
	if r := readStored(t, "testdata/before-h2/run-fake.json"); r.Schema != Schema {
		t.Fatalf("a report from before has schema %q", r.Schema)
	}
}

// The grid of a stored report from before the change is the one that code
// printed (its golden file was written by it).
func TestGridOfAReportFromBefore(t *testing.T) {
	r := readStored(t, "testdata/before-h2/run-fake.json")
	var b strings.Builder
	Grid(&b, r)
	want, err := os.ReadFile("testdata/before-h2/run-fake.grid")
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Fatalf("grid differs from the one printed before:\n%s", b.String())
	}
}

// readStored reads a stored run report as the reader of package result
// does (which this package cannot import): bounded, then decoded.
func readStored(t *testing.T, path string) *Report {
	t.Helper()
	data, err := ReadBounded(path)
	if err != nil {
		t.Fatal(err)
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

// Reading a report links neither Docker nor BuildKit: the schema's
// packages and the verbs' renderers (ab's and xproc's results among them)
// import nothing of the engine side.
func TestSchemaPackagesLinkNoEngine(t *testing.T) {
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go") // the go that runs this test, PATH or not
	out, err := exec.Command(goBin, "list", "-deps", ".", "../render", "../result").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, bad := range []string{"github.com/docker/", "github.com/moby/", "/orchestrator/engine", "/orchestrator/image", "/orchestrator/runner"} {
			if strings.Contains(dep, bad) {
				t.Errorf("the report's packages link %s", dep)
			}
		}
	}
}
