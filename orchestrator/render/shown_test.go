package render

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/result"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// A run's report shown: the grid or the JSON report on out; where it is
// stored and its page beside it said on log; nothing said of a report not
// stored.
func TestRunViewShow(t *testing.T) {
	r, err := result.ReadRun(fixture, "report")
	if err != nil {
		t.Fatal(err)
	}
	var out, log strings.Builder
	RunView{}.Show(&out, &log, r, "")
	if !strings.Contains(out.String(), r.Benches[0].Name) || strings.HasPrefix(out.String(), "{") || log.String() != "" {
		t.Errorf("the grid, not stored: %q, said %q", out.String(), log.String())
	}
	path := filepath.Join(t.TempDir(), "run-x.json")
	out.Reset()
	RunView{JSON: true, HTML: true}.Show(&out, &log, r, path)
	html := strings.TrimSuffix(path, ".json") + ".html"
	if !strings.HasPrefix(out.String(), "{\n  \"schema\"") || log.String() != "report: "+path+"\nhtml: "+html+"\n" {
		t.Errorf("JSON and its page: %.40q, said %q", out.String(), log.String())
	}
	if _, err := os.Stat(html); err != nil {
		t.Error(err)
	}
}

// The verdict is the last line; an output that cannot be written is the
// error when the run was fine, and said beside the run's own error when not.
func TestOutputsFinish(t *testing.T) {
	r, err := result.ReadRun(fixture, "report")
	if err != nil {
		t.Fatal(err)
	}
	var said strings.Builder
	p := termtext.NewPrinter(&said)
	missing := Outputs{JUnit: filepath.Join(t.TempDir(), "absent", "j.xml")}
	if err := missing.Finish(r, nil, p); err == nil || !strings.Contains(err.Error(), "JUnit file") {
		t.Errorf("a fine run, an output not written: %v", err)
	}
	runErr := errors.New("regressed")
	if err := missing.Finish(r, runErr, p); err != runErr {
		t.Errorf("a failed run: %v", err)
	}
	p.Close()
	lines := strings.Split(strings.TrimSpace(said.String()), "\n")
	if len(lines) != 2 || !strings.HasPrefix(lines[0], "halebench: JUnit file") || lines[1] != "halebench: "+Of(r).Line() {
		t.Errorf("said:\n%s", said.String())
	}
	if err := (Outputs{}).Finish(r, runErr, termtext.NewPrinter(&said)); err != runErr {
		t.Errorf("no outputs: %v", err)
	}
}
