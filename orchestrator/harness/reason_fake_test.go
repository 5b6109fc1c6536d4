package harness_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// Without the subject's toolchain, its reason is said once — where the
// images are made — and every later line refers to it: the warning, each
// bench's progress line and, on the same terminal, the grid's header. A
// grid bound elsewhere (a file, `show`) says it in full; the gate line
// counts the benches as subject_unavailable.
func TestFakeUnavailableReasonSaidOnce(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "benches", "micro"), 0o755)
	for _, f := range []string{"one.hl", "one.c", "two.hl", "two.c"} {
		os.WriteFile(filepath.Join(dir, "benches", "micro", f), []byte("// test\n"), 0o644)
	}
	reason := "no hale source at ../hale, and the pinned release could not be fetched " + strings.Repeat("(why, and how to give one) ", 10)
	eng := &fakeEngine{elapsed: map[string]int64{"c": 1000}, check: map[string]string{"c": "n:1"}}
	o := fakeOptions(t, "hale,c", "hale", "")
	o.Suite = dir
	var log bytes.Buffer
	o.Log = &log
	res, err := runFake(t, context.Background(), fakeEnv(fakeImages{unavailable: map[string]string{"hale": reason}}, eng, 2), o)
	if err != nil {
		t.Fatal(err)
	}
	var grid bytes.Buffer
	report.GridFor(&grid, res.Report, report.GridOptions{ReasonSaid: true})
	seen := log.String() + grid.String()
	if n := strings.Count(seen, reason); n != 1 || !strings.Contains(log.String(), "images: hale unavailable: "+reason) {
		t.Fatalf("the reason is said %d times:\n%s", n, seen)
	}
	if n := strings.Count(seen, report.SaidAbove("hale")); n != 4 { // the warning, two benches, the grid
		t.Errorf("%d references to the reason, want 4:\n%s", n, seen)
	}
	if !strings.Contains(grid.String(), "gate: ok — 2 subject_unavailable;") {
		t.Errorf("the gate line does not count the benches:\n%s", grid.String())
	}
	var alone bytes.Buffer
	report.Grid(&alone, res.Report)
	if !strings.Contains(alone.String(), reason) {
		t.Errorf("a grid on its own does not say the reason:\n%s", alone.String())
	}
	if b := bench(res.Report, "one"); b.Status != outcome.SubjectUnavailable || b.SubjectResult.Detail != reason {
		t.Errorf("one: %s %q (the report keeps the reason)", b.Status, b.SubjectResult.Detail)
	}
}
