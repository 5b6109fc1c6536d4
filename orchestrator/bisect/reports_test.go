package bisect

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// countReport is a count-only hale run report of commit id: each bench's
// instructions (0: not counted); failed makes hale's build failed.
func countReport(id string, irs map[string]uint64, failed bool) *report.Report {
	r := &report.Report{Schema: report.Schema, Subject: "hale", Images: map[string]report.Toolchain{
		"hale": {Status: outcome.Available, Hale: &report.HaleBuild{Ref: id, Commit: id}}}}
	if failed {
		r.Images["hale"] = report.Toolchain{Status: outcome.BuildFailed, Reason: "cargo: error[E0425]", Hale: &report.HaleBuild{Ref: id}}
		return r
	}
	for name, ir := range irs {
		lane := &report.CountLane{Ir: ir, Verdict: outcome.OK}
		if ir == 0 {
			lane = nil
		}
		r.Benches = append(r.Benches, &report.Bench{Name: name, Status: outcome.OK, SubjectResult: &report.Lang{Status: outcome.OK, Count: lane}})
	}
	return r
}

func writeReport(t *testing.T, dir, name string, r *report.Report) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteFile(p, r); err != nil {
		t.Fatal(err)
	}
	return p
}

func fanoutCommits(n int) []Commit {
	cs := make([]Commit, n)
	for i := range cs {
		cs[i] = Commit{ID: fmt.Sprintf("%040d", i), Subject: fmt.Sprintf("commit %d", i)}
	}
	return cs
}

// Six commits, hale's build failed at commit 2, fn's instructions step up
// ×1.86 at commit 4: commit 4 is named against its parent, 2 skipped,
// exactly as the sequential bisect by instructions would.
func TestFromReportsNamesTheStep(t *testing.T) {
	cs := fanoutCommits(6)
	dir := t.TempDir()
	for i, c := range cs {
		ir := uint64(1000)
		if i >= 4 {
			ir = 1860
		}
		// CI downloads each job's artifact into its own folder.
		writeReport(t, dir, fmt.Sprintf("job-%d/run.json", i), countReport(c.ID, map[string]uint64{"fn": ir, "other": 500}, i == 2))
	}
	res, err := FromReports(context.Background(), dir, cs, []string{"fn", "other"}, DefaultThreshold, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Found || res.First.ID != cs[4].ID || len(res.Changes) != 1 {
		t.Fatalf("%s %+v: %s", res.Outcome, res.Changes, res.Detail)
	}
	c := res.Changes[0]
	if c.Bench != "fn" || c.Ratio != 1.86 || c.Interval != [2]float64{1.86, 1.86} || !c.AgainstParent || c.Against != cs[3].ID || c.Metric != "instructions" {
		t.Errorf("change %+v", c)
	}
	skipped := 0
	for _, st := range res.Steps {
		if st.Verdict == VerdictSkipped {
			skipped++
			if st.Commit.ID != cs[2].ID || !strings.Contains(st.Note, "hale did not build") {
				t.Errorf("skipped step %+v", st)
			}
		}
	}
	if skipped != 1 {
		t.Errorf("%d skipped steps: %+v", skipped, res.Steps)
	}
	// The same counts through a fake sequential judge: the same answer.
	seq, err := Run(context.Background(), countJudge{at: mustRead(t, dir, cs, []string{"fn", "other"})}, Options{Commits: cs, Benches: []string{"fn", "other"}})
	if err != nil || seq.First.ID != res.First.ID {
		t.Errorf("sequential: %v %+v", err, seq)
	}
}

func mustRead(t *testing.T, dir string, cs []Commit, benches []string) map[string]*counted {
	t.Helper()
	at, err := readReports(dir, cs, benches)
	if err != nil {
		t.Fatal(err)
	}
	return at
}

// A missing report is a skip; a step whose parent has none is named among
// the commits since the last counted one; count_unstable is said.
func TestFromReportsMissingAndUnstable(t *testing.T) {
	cs := fanoutCommits(6)
	dir := t.TempDir()
	for i, c := range cs {
		if i == 3 {
			continue
		}
		ir := uint64(1000)
		if i >= 4 {
			ir = 1200
		}
		r := countReport(c.ID, map[string]uint64{"fn": ir}, false)
		if i == 4 {
			r.Benches[0].SubjectResult.Count.Verdict = outcome.CountUnstable
		}
		writeReport(t, dir, fmt.Sprintf("r%d.json", i), r)
	}
	res, err := FromReports(context.Background(), dir, cs, []string{"fn"}, DefaultThreshold, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != AmongSkipped || len(res.Range) != 2 || res.Range[1].ID != cs[4].ID || len(res.Changes) != 1 {
		t.Fatalf("%s %+v: %s", res.Outcome, res.Changes, res.Detail)
	}
	if c := res.Changes[0]; c.AgainstParent || c.Against != cs[2].ID || !strings.Contains(c.Note, "count_unstable") || !strings.Contains(c.Note, "did not build") {
		t.Errorf("change %+v", c)
	}
}

// Refused, naming the file: two reports of one commit, a report of
// other benches, of a commit off the range, not a hale report, a symlink.
func TestFromReportsRefuses(t *testing.T) {
	cs := fanoutCommits(3)
	ok := func(i int) *report.Report { return countReport(cs[i].ID, map[string]uint64{"fn": 1000}, false) }
	cases := map[string]struct {
		extra func(dir string) string // writes the bad file, returns what the error must name
		want  string
	}{
		"duplicate": {func(dir string) string { return writeReport(t, dir, "zz/again.json", ok(1)) }, "keep one report per commit"},
		"other benches": {func(dir string) string {
			return writeReport(t, dir, "other.json", countReport(cs[1].ID, map[string]uint64{"fn": 1, "extra": 2}, false))
		}, "not --bench=fn"},
		"off the range": {func(dir string) string {
			return writeReport(t, dir, "off.json", countReport(fmt.Sprintf("%040d", 99), map[string]uint64{"fn": 1}, false))
		}, "not on the first-parent range"},
		"not hale": {func(dir string) string {
			r := ok(1)
			r.Subject = "c"
			return writeReport(t, dir, "c.json", r)
		}, "not a hale run report"},
		"symlink": {func(dir string) string {
			p := filepath.Join(dir, "link.json")
			if err := os.Symlink(filepath.Join(dir, "r0.json"), p); err != nil {
				t.Fatal(err)
			}
			return p
		}, "symlink"},
	}
	for name, c := range cases {
		dir := t.TempDir()
		first := writeReport(t, dir, "r0.json", ok(0))
		writeReport(t, dir, "r2.json", ok(2))
		if name != "duplicate" {
			writeReport(t, dir, "r1.json", ok(1))
		} else {
			first = writeReport(t, dir, "r1.json", ok(1))
		}
		bad := c.extra(dir)
		_, err := FromReports(context.Background(), dir, cs, []string{"fn"}, DefaultThreshold, os.Stderr)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), bad) {
			t.Errorf("%s: %v; want an error naming %s and saying %q", name, err, bad, c.want)
		}
		if name == "duplicate" && (err == nil || !strings.Contains(err.Error(), first)) {
			t.Errorf("duplicate: %v does not name %s", err, first)
		}
	}
}
