package render

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/result"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Each kind takes only the outputs it has a form for, refused before any
// is written: a run's CI outputs are checked, an ab has no JUnit, an xproc
// report only its JSON.
func TestMergedCheck(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "absent", "f")
	for _, c := range []struct {
		o    Merged
		k    result.Kind
		want string
	}{
		{Merged{JUnit: missing}, result.Run, "cannot write " + missing},
		{Merged{JUnit: "j.xml"}, result.AB, "merge: --junit writes a run's benches"},
		{Merged{HTML: "x.html"}, result.Xproc, "merge: --html writes a run's or an ab's outputs"},
		{Merged{Out: "x.json", HTML: "x.html", Summary: "s.md"}, result.AB, ""},
		{Merged{Out: "x.json", JSON: true}, result.Xproc, ""},
	} {
		if err := c.o.Check(c.k); (c.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v for %s: %v, want %q", c.o, c.k, err, c.want)
		}
	}
}

// A merged ab: -o's file and its page written, -o said as a result, the
// JSON or the text shown, and its table appended to each summary.
func TestMergedAB(t *testing.T) {
	dir := t.TempDir()
	m := &result.Doc{Kind: result.AB, AB: &report.Result{Schema: report.ABSchema, A: "side a", B: "side b"}}
	o := Merged{Out: filepath.Join(dir, "ab.json"), HTML: filepath.Join(dir, "ab.html"), Summary: filepath.Join(dir, "s.md"), StepSummary: filepath.Join(dir, "gh.md")}
	var out, log strings.Builder
	if err := o.write(&out, &log, m); err != nil {
		t.Fatal(err)
	}
	if log.String() != "result: "+o.Out+"\n" || !strings.Contains(out.String(), "side a") || strings.HasPrefix(out.String(), "{") {
		t.Errorf("said %q, shown %q", log.String(), out.String())
	}
	for _, p := range []string{o.Out, o.HTML} {
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", p, err)
		}
	}
	out.Reset()
	o.JSON = true
	if err := o.write(&out, &log, m); err != nil || !strings.HasPrefix(out.String(), "{\n  \"schema\": \"halebench-ab/1\"") {
		t.Errorf("--json: %v %.40q", err, out.String())
	}
	if err := o.abSummary(m.AB); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{o.Summary, o.StepSummary} {
		if b, _ := os.ReadFile(p); !strings.HasPrefix(string(b), "### Performance: side a → side b") {
			t.Errorf("%s: %q", p, b)
		}
	}
}

// A merged run: each shard said, the text shown, the verdict last, and
// the error its gate gives.
func TestMergedGiveRun(t *testing.T) {
	r, err := result.ReadRun(fixture, "report")
	if err != nil {
		t.Fatal(err)
	}
	r.Status = outcome.Regression
	r.Shard = &report.Shard{Total: 2, Parts: []report.ShardPart{{Index: 1, File: "a.json"}, {Index: 2, File: "b.json"}}}
	var out, said strings.Builder
	p := termtext.NewPrinter(&said)
	err = Merged{}.Give(&out, p, &result.Doc{Kind: result.Run, Run: r})
	p.Close()
	lines := strings.Split(strings.TrimSpace(said.String()), "\n")
	if err != judge.ErrRegression || len(lines) != 3 || !strings.HasPrefix(lines[0], "shard 1/2: ") || lines[2] != "halebench: "+Of(r).Line() || out.Len() == 0 {
		t.Errorf("%v, said:\n%s", err, said.String())
	}
}

// In CI a merged run whose shards did not measure the subject ends in
// judge.ErrUnmeasured (exit 3), its outputs written; elsewhere it passes.
func TestMergedGiveUnmeasured(t *testing.T) {
	r, err := result.ReadRun(fixture, "report")
	if err != nil {
		t.Fatal(err)
	}
	r.Status, r.Subject, r.SubjectStatus = outcome.OK, "hale", "unavailable"
	r.Shard = &report.Shard{Total: 1, Parts: []report.ShardPart{{Index: 1, File: "a.json"}}}
	for _, ci := range []bool{false, true} {
		var out, said strings.Builder
		p := termtext.NewPrinter(&said)
		err := Merged{FailUnmeasured: ci}.Give(&out, p, &result.Doc{Kind: result.Run, Run: r})
		p.Close()
		if ci && (!errors.Is(err, judge.ErrUnmeasured) || !strings.Contains(err.Error(), "hale (unavailable)")) || !ci && err != nil {
			t.Errorf("CI %v: %v", ci, err)
		}
	}
}
