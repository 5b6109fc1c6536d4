package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/render"
)

// report draws a run report, an ab result or an xproc report, each by the
// one page generator (the same policy); a run with an ab is refused (exit
// 2) saying that an ab's page draws it alone.
func TestReportVerbEveryKind(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ file, want, said string }{
		{"../../orchestrator/report/testdata/run-c.json", `class="chart ratio-chart"`, "(1 report(s))"},
		{"../../orchestrator/result/testdata/today/ab-20261206T101112Z-abc123.json", `class="chart forest"`, "(an ab result)"},
		{"../../orchestrator/result/testdata/today/xproc-20261206T111213Z.json", `class="chart xproc-chart"`, "(an xproc report)"},
	} {
		page := filepath.Join(dir, filepath.Base(c.file)+".html")
		code, _, errOut := run(t, nil, "report", "-o", page, c.file)
		if code != 0 || !strings.Contains(errOut, c.said) {
			t.Fatalf("report %s: exit %d\n%s", c.file, code, errOut)
		}
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), c.want) || !strings.Contains(string(b), `<table class="medians">`) ||
			!strings.Contains(string(b), `content="`+strings.ReplaceAll(render.CSP, "'", "&#39;")+`"`) {
			t.Errorf("the page of %s lacks its chart, its table or the policy", c.file)
		}
	}
	code, _, errOut := run(t, nil, "report", "../../orchestrator/report/testdata/run-c.json", "../../orchestrator/result/testdata/today/ab-20261206T101112Z-abc123.json")
	if code != 2 || !strings.Contains(errOut, "its page draws it alone") {
		t.Errorf("report run + ab: exit %d, %q", code, errOut)
	}
}
