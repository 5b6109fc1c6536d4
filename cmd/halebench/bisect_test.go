package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/bisect"
)

// TestBisectBadInput: bisect's bad input exits 2 with what to do, before any
// engine is asked (DOCKER_HOST points nowhere).
func TestBisectBadInput(t *testing.T) {
	repo := bisectRepo(t)
	// The last case: the judge's session dials the (absent) engine.
	wired := "engine unreachable at unix:///tmp/halebench-no-such.sock"
	base := []string{"bisect", "--suite=../..", "--bench=fn_modular", "--hale-git=" + repo}
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"--good=v0", "--bad=v2"}, `no commit named "v0"`},
		{[]string{"--good=v2", "--bad=v1"}, "does not descend"},
		{[]string{"--good=v1", "--bad=v1"}, "are one commit"},
		{[]string{"--bad=v2"}, "--good=REF"},
		{[]string{"--good=v1", "--bad=v2", "--metric=cycles"}, "--metric=cycles"},
		{[]string{"--good=v1", "--bad=v2", "--metric=memory"}, "--metric=memory: give one of time, instructions"},
		{[]string{"--good=v1", "--bad=v2", "--threshold=2"}, "--threshold=2"},
		{[]string{"--good=v1", "--bad=v2", "--bench=nosuch"}, `no bench named "nosuch"`},
		{[]string{"--good=v1", "--bad=v2"}, wired},
	}
	code, out, errOut := run(t, nil, append(base, "--good=v1", "--bad=v2", "--list")...)
	if lines := strings.Split(strings.TrimSpace(out), "\n"); code != 0 || len(lines) != 2 || !strings.HasSuffix(lines[0], " one") || !strings.HasSuffix(lines[1], " two") {
		t.Errorf("--list: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	for _, c := range cases {
		code, out, errOut := run(t, []string{"DOCKER_HOST=unix:///tmp/halebench-no-such.sock"}, append(append([]string{}, base...), c.args...)...)
		if code != 2 || !strings.Contains(errOut, c.want) || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want exit 2 saying %q", c.args, code, out, errOut, c.want)
		}
	}
}

// bisectRepo is a git repository of two empty commits, tagged v1 and v2.
func bisectRepo(t *testing.T) string {
	t.Helper()
	return gitRepo(t, []string{"commit", "-q", "--allow-empty", "-m", "one"}, []string{"tag", "v1"},
		[]string{"commit", "-q", "--allow-empty", "-m", "two"}, []string{"tag", "v2"})
}

// gitRepo is a new git repository (branch main) after the git commands
// steps, run in it; git runs the tests' way (one identity, nothing else).
func gitRepo(t *testing.T, steps ...[]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("git is needed and CI=true")
		}
		t.Skip("git is not installed on this host")
	}
	repo := t.TempDir()
	gitIn(t, repo, "init", "-q", "-b", "main")
	for _, args := range steps {
		gitIn(t, repo, args...)
	}
	return repo
}

// gitIn runs git args in repo and returns its output, trimmed.
func gitIn(t *testing.T, repo string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v: %s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

// bisect --unprivileged reaches the judge's comparisons (as ab's flag does).
func TestBisectUnprivileged(t *testing.T) {
	repo := bisectRepo(t)
	for _, unpriv := range []bool{false, true} {
		var got *bool
		newJudge := func(ctx context.Context, c bisectConfig) (bisect.Judge, func(), error) {
			got = &c.Unprivileged
			return nil, nil, errors.New("judge made")
		}
		args := []string{"--suite=../..", "--bench=fn_modular", "--hale-git=" + repo, "--good=v1", "--bad=v2", "--quiet"}
		if unpriv {
			args = append(args, "--unprivileged")
		}
		err := runBisect(context.Background(), args, newJudge)
		if err == nil || err.Error() != "judge made" || got == nil || *got != unpriv {
			t.Errorf("--unprivileged=%v: err %v, the judge got %v", unpriv, err, got)
		}
	}
}

// printBisect: every step's figures and the answer on stdout; --json the same
// as one object.
func TestPrintBisect(t *testing.T) {
	first := bisect.Commit{ID: "2fc22f10aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", Subject: "Merge pull request #384"}
	r := &bisect.Result{Outcome: bisect.Found, First: &first, Commits: 11, BuildSeconds: 900, Detail: "commit 2fc22f10aaaa is the first",
		Ends: map[string]bisect.Ratio{"fn_modular": {Ratio: 1.31, Low: 1.29, High: 1.33}},
		Steps: []bisect.Step{
			{Commit: bisect.Commit{ID: "16b227e6be965f02", Subject: "v0.13.0"}, Verdict: bisect.VerdictGoodEnd, BuildSeconds: 300},
			{Commit: first, Verdict: bisect.VerdictBad, BuildSeconds: 600,
				VsGood: map[string]bisect.Ratio{"fn_modular": {Ratio: 1.30, Low: 1.28, High: 1.32}},
				VsBad:  map[string]bisect.Ratio{"fn_modular": {Ratio: 1.004, Low: 0.99, High: 1.02}}},
		}}
	var b strings.Builder
	if err := printBisect(&b, r, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"2fc22f10aaaa ", "Merge pull request #384", "bad", "600", "fn_modular ×1.300 [1.280, 1.320]", "fn_modular ×1.004", "found: commit 2fc22f10aaaa", "11 commits in range, 900 s of builds"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("grid lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	if err := printBisect(&b, r, true); err != nil {
		t.Fatal(err)
	}
	var back bisect.Result
	if err := json.Unmarshal([]byte(b.String()), &back); err != nil || back.First.ID != first.ID || back.Steps[1].VsGood["fn_modular"].Low != 1.28 {
		t.Fatalf("json: %v %+v", err, back)
	}
}

// judgeRatio: the default metric is instructions with time beside where
// hale is counted, time where it is not; --metric picks one.
func TestJudgeRatio(t *testing.T) {
	tr := bisect.Ratio{Ratio: 1.125, Low: 1.013, High: 1.21}
	r, err := judgeRatio("", "fn", tr, 1, "not counted")
	if err != nil || r.Metric != "instructions" || r.Ratio != 1 || r.Low != 1 || r.Time == nil || r.Time.Ratio != 1.125 || r.Time.Metric != "time" {
		t.Errorf("default, counted: %+v %v", r, err)
	}
	if r, err := judgeRatio("", "fn", tr, 0, "not counted"); err != nil || r.Metric != "time" || r.Ratio != 1.125 || r.Time != nil {
		t.Errorf("default, not counted: %+v %v", r, err)
	}
	if r, err := judgeRatio("time", "fn", tr, 1.86, "not counted"); err != nil || r.Metric != "time" || r.Ratio != 1.125 {
		t.Errorf("time: %+v %v", r, err)
	}
	if r, err := judgeRatio("instructions", "fn", tr, 1.86, "not counted"); err != nil || r.Ratio != 1.86 || r.Time != nil {
		t.Errorf("instructions: %+v %v", r, err)
	}
	if _, err := judgeRatio("instructions", "fn", tr, 0, "not counted"); err == nil || !strings.Contains(err.Error(), "--metric=time") {
		t.Errorf("instructions, not counted: %v", err)
	}
}

// printBisect says every step, the time-only one as such, in the grid and
// the JSON (changes).
func TestPrintBisectSteps(t *testing.T) {
	r := &bisect.Result{Outcome: bisect.Found, First: &bisect.Commit{ID: "791e25ec00", Subject: "#377"}, Changes: []bisect.Change{
		{Commit: "791e25ec00", Subject: "#377", Bench: "fn_modular", Against: "aaaa", AgainstParent: true, Ratio: 1, Interval: [2]float64{1, 1}, Metric: "instructions", TimeRatio: 1.125, TimeInterval: []float64{1.013, 1.21}, TimeOnly: true},
		{Commit: "bbbbbbbb", Subject: "#378", Bench: "fn_modular", Against: "791e25ec00", AgainstParent: true, Ratio: 1.86, Interval: [2]float64{1.86, 1.86}, Metric: "instructions", TimeRatio: 1.44},
	}}
	var b strings.Builder
	if err := printBisect(&b, r, false); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"step: 791e25ec00 fn_modular ×1.000 [1.000, 1.000] by instructions vs parent, time ×1.125 [1.013, 1.210] (time only)", "step: bbbbbbbb fn_modular ×1.860"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	if err := printBisect(&b, r, true); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Changes []map[string]any `json:"changes"`
	}
	if err := json.Unmarshal([]byte(b.String()), &back); err != nil || len(back.Changes) != 2 || back.Changes[0]["time_only"] != true || back.Changes[1]["ratio_vs_parent"] != 1.86 {
		t.Fatalf("json: %v %s", err, b.String())
	}
}
