package result

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/report"
)

var update = flag.Bool("update", false, "rewrite the golden files of renderings new to this package")

// Fixtures written by the code before the envelope had a kind field: a run
// report (report's own fixture), an ab result and an xproc report.
const (
	oldRun   = "../report/testdata/before-h2/run-fake.json"
	oldAB    = "testdata/today/ab-20261206T101112Z-abc123.json"
	oldXproc = "testdata/today/xproc-20261206T111213Z.json"
)

// Every kind reads, its kind said by its schema when the document has no
// kind field (all of them, written before it was added).
func TestReadKinds(t *testing.T) {
	for _, c := range []struct {
		path string
		want Kind
	}{{oldRun, Run}, {oldAB, AB}, {oldXproc, Xproc}} {
		d, err := Read(c.path)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if d.Kind != c.want || d.File != c.path || d.Value() == nil {
			t.Errorf("%s: kind %q, file %q; want %q", c.path, d.Kind, d.File, c.want)
		}
		if (d.Run != nil) != (c.want == Run) || (d.AB != nil) != (c.want == AB) || (d.Xproc != nil) != (c.want == Xproc) {
			t.Errorf("%s: the document is not (only) in its kind's field", c.path)
		}
	}
	d, _ := Read(oldAB)
	if len(d.AB.Benches) != 3 || d.AB.Benches[1].Ratio != 1.1 || d.AB.Sides[1].Name != "B" {
		t.Errorf("ab result read as %+v", d.AB)
	}
}

// A document whose kind field is set reads as that kind; one whose kind
// field and schema disagree, whose schema is unknown or of another version,
// or that holds a null row, is refused saying why.
func TestDecodeRefuses(t *testing.T) {
	if d, err := Decode("k.json", []byte(`{"kind":"ab","schema":"halebench-ab/1","benches":[]}`)); err != nil || d.Kind != AB {
		t.Fatalf("kind field: %v", err)
	}
	for _, c := range []struct{ doc, want string }{
		{`{"kind":"run","schema":"halebench-ab/1"}`, `says kind "run" but has schema halebench-ab/1`},
		{`{"schema":"other"}`, `schema "other"; this halebench reads halebench-report/1, halebench-ab/1 and halebench-xproc/1`},
		{`{}`, `schema ""`},
		{`{"schema":"halebench-xproc/2"}`, "a newer version of an xproc report than this halebench reads (halebench-xproc/1)"},
		{`{"schema":"halebench-report/0"}`, "reads a run report as halebench-report/1"},
		{`{"schema":"halebench-report/1","benches":[null]}`, "not a run report: a bench entry is null"},
		{`{"schema":"halebench-xproc/1","variants":{"small":[null]}}`, "not an xproc report: a small row is null"},
		{`{"schema":"halebench-ab/1","benches":{}}`, "not an ab result"},
		{`{"schema":"halebench-report/1","sources_digest":"sy"}`, `not a run report: sources_digest "sy" is not a sha256 digest`},
		{`{"schema":"halebench-ab/1","sources_digest":"sha256:AB"}`, `not an ab result: sources_digest "sha256:AB" is not a sha256 digest`},
		{`{"schema":"halebench-xproc/1","sources_digest":"\u001b[2J"}`, "not an xproc report: sources_digest"}, // the escape cleaned away
		{`[1]`, "not a JSON report"},
	} {
		if _, err := Decode("x.json", []byte(c.doc)); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "x.json") || strings.Contains(err.Error(), "\x1b") {
			t.Errorf("%s: %v; want %q", c.doc, err, c.want)
		}
	}
}

// The reader is bounded: no symlink followed, no FIFO opened, nothing over
// report.MaxFileBytes read.
func TestReadBounded(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(filepath.Join(mustAbs(t, oldRun)), link); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, []byte(`{"schema":"halebench-report/1","benches":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, report.MaxFileBytes+1); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{link: "is a symlink", fifo: "not a regular file", big: "over 64 MiB"} {
		if _, err := Read(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want %q", path, err, want)
		}
	}
}

func mustAbs(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// A verb that does not take a kind refuses it by name and says what it
// takes; ReadRun is the run-only reader.
func TestWantNamesTheKind(t *testing.T) {
	d, _ := Read(oldXproc)
	err := d.Want("compare", Run)
	if err == nil || !strings.Contains(err.Error(), oldXproc+" is an xproc report (halebench-xproc/1); compare takes a run report (results/run-*.json)") {
		t.Errorf("Want: %v", err)
	}
	if err := d.Want("show", Run, AB, Xproc); err != nil {
		t.Errorf("Want of every kind: %v", err)
	}
	if _, err := ReadRun(oldAB, "bundle"); err == nil || !strings.Contains(err.Error(), "is an ab result (halebench-ab/1); bundle takes a run report") {
		t.Errorf("ReadRun of an ab result: %v", err)
	}
	if r, err := ReadRun(oldRun, "bundle"); err != nil || r.Schema != report.Schema {
		t.Errorf("ReadRun of a run report: %v", err)
	}
}

// show's renderings (Show) of stored documents of every kind: a run's grid, an
// ab's grid and Markdown table, an xproc's tables are byte for byte what
// the code before the envelope printed (golden files it wrote); an xproc's
// Markdown, new, has its own golden file (-update).
func TestRenderStored(t *testing.T) {
	for _, c := range []struct {
		path, golden string
		md           bool
	}{
		{oldRun, "../report/testdata/before-h2/run-fake.grid", false},
		{oldAB, "testdata/today/ab.grid", false},
		{oldAB, "testdata/today/ab.md", true},
		{oldXproc, "testdata/today/xproc.tables", false},
		{oldXproc, "testdata/xproc.md", true},
	} {
		d, err := Read(c.path)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		Show(&b, d, c.md)
		if *update && !strings.Contains(c.golden, "/today/") && !strings.Contains(c.golden, "before-h2") {
			os.WriteFile(c.golden, b.Bytes(), 0o644)
		}
		want, err := os.ReadFile(c.golden)
		if err != nil {
			t.Fatal(err)
		}
		if b.String() != string(want) {
			t.Errorf("%s differs from %s:\n%s", c.path, c.golden, b.String())
		}
	}
}
