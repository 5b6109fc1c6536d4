package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/bisect"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/termtext"
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

// planRepo is a git repository of n commits (the second's subject
// hostile), tagged v1 at the first and v2 at the last; ids oldest first.
func planRepo(t *testing.T, n int) (string, []string) {
	t.Helper()
	repo := bisectRepo(t) // v1, v2: two commits
	gitC := func(args ...string) string { return gitIn(t, repo, args...) }
	gitC("commit", "-q", "--allow-empty", "-m", "  ::error::planted ##vso[task.complete]")
	for i := 3; i < n; i++ {
		gitC("commit", "-q", "--allow-empty", "-m", fmt.Sprintf("commit %d", i))
	}
	gitC("tag", "-f", "v2")
	return repo, strings.Fields(gitC("rev-list", "--reverse", "--first-parent", "v2"))
}

// --plan: the range as a GitHub Actions matrix, on one line, subjects
// cleaned; no engine is asked.
func TestBisectPlan(t *testing.T) {
	repo, ids := planRepo(t, 4)
	code, out, errOut := run(t, []string{"DOCKER_HOST=unix:///tmp/halebench-no-such.sock"}, "bisect", "--suite=../..", "--bench=fn_modular", "--hale-git="+repo, "--good=v1", "--bad=v2", "--plan")
	var plan struct {
		Include []bisect.PlanJob `json:"include"`
	}
	if code != 0 || strings.Count(out, "\n") != 1 || json.Unmarshal([]byte(out), &plan) != nil || len(plan.Include) != len(ids) {
		t.Fatalf("--plan: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for i, j := range plan.Include {
		if j.Commit != ids[i] || j.Short != ids[i][:12] || j.Subject == "" {
			t.Errorf("job %d: %+v, want commit %s", i, j, ids[i])
		}
	}
	if cmd := termtext.CommandLine(out); cmd != "" || !strings.Contains(plan.Include[2].Subject, "planted") {
		t.Errorf("the plan carries %q or lost the subject: %q", cmd, out)
	}
	code, _, errOut = run(t, nil, "bisect", "--suite=../..", "--bench=fn_modular", "--hale-git="+repo, "--good=v1", "--bad=v2", "--plan", "--list")
	if code != 2 || !strings.Contains(errOut, "give one of") {
		t.Errorf("--plan --list: exit %d, %q", code, errOut)
	}
}

// --from-reports: the reports of the plan's commits give the step, by
// instructions, on stdout and as JSON; a duplicate exits 2.
func TestBisectFromReports(t *testing.T) {
	repo, ids := planRepo(t, 5)
	dir := t.TempDir()
	for i, id := range ids {
		ir := uint64(5000)
		if i >= 4 {
			ir = 6000
		}
		writeReport(t, dir, fmt.Sprintf("job-%d/run.json", i), countReport(id, map[string]uint64{"fn_modular": ir}, i == 2))
	}
	args := []string{"bisect", "--suite=../..", "--bench=fn_modular", "--hale-git=" + repo, "--good=v1", "--bad=v2", "--from-reports=" + dir}
	env := []string{"DOCKER_HOST=unix:///tmp/halebench-no-such.sock"}
	code, out, errOut := run(t, env, append(args, "--json")...)
	var res bisect.Result
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.Outcome != bisect.Found || res.First.ID != ids[4] || len(res.Changes) != 1 || res.Changes[0].Ratio != 1.2 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, _ = run(t, env, args...)
	if code != 0 || !strings.Contains(out, "step: "+ids[4][:12]+" fn_modular ×1.200 [1.200, 1.200] by instructions vs parent") || !strings.Contains(out, "skipped") {
		t.Errorf("grid: exit %d\n%s", code, out)
	}
	writeReport(t, dir, "again.json", countReport(ids[3], map[string]uint64{"fn_modular": 6000}, false))
	code, out, errOut = run(t, env, args...)
	if code != 2 || out != "" || !strings.Contains(errOut, "again.json") || !strings.Contains(errOut, "job-3/run.json") {
		t.Errorf("duplicate: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
