package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/report"
	"gopkg.in/yaml.v3"
)

// The sharded CI recipes of docs/ci.md, as files under docs/recipes/: each
// is read as its CI system would read it (YAML), and followed from the
// shards' command lines to the merge's: each shard's halebench arguments go
// through run's own flags and --shard resolution with the environment its
// container gets, their reports are followed through the artifacts to the
// files the merge names, and the merge's command line runs, on made-up
// shard reports put where the recipe's shards would have left theirs.

// recipePlan is what a recipe says, read from its file.
type recipePlan struct {
	n        int
	shards   []containerCmd // shard K at K-1
	reports  []string       // where shard K's report is when the merge runs (host paths under the test's folder)
	merge    containerCmd
	readBack []string // host files the CI reads after the merge (the step summary, the JUnit report)
	mkdirs   []string // folders the merge job makes before the merge
	env      []string // the merge's environment besides the test's
}

// containerCmd is one halebench command as its container sees it.
type containerCmd struct {
	env    map[string]string
	mounts map[string]string // container path → host path
	ro     map[string]bool   // container paths mounted read-only
	user   string            // docker run --user
	groups []string          // docker run --group-add
	args   []string          // halebench's, the verb first
}

// reportName is a name run gives its report (report.Write).
const reportName = "run-20261204T000000Z-abcdef.json"

func TestRecipes(t *testing.T) {
	for _, c := range []struct {
		name string
		plan func(*testing.T, string) recipePlan
	}{{"github", githubPlan}, {"gitlab", gitlabPlan}, {"k8s", k8sPlan}} {
		t.Run(c.name, func(t *testing.T) {
			tmp := t.TempDir()
			p := c.plan(t, tmp)
			if p.n != 3 || len(p.reports) != p.n {
				t.Fatalf("%d shards, %d reports; the recipes use 3", p.n, len(p.reports))
			}
			writeFakeShards(t, p.reports, outcome.Available)
			for _, d := range p.mkdirs {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			args, outputs := mergeArgs(t, p.merge)
			code, _, errOut := run(t, append([]string{"GITHUB_STEP_SUMMARY="}, p.env...), args...)
			if code != 0 {
				t.Fatalf("the recipe's merge %v: exit %d\n%s", args, code, errOut)
			}
			for _, f := range append(outputs, p.readBack...) {
				if st, err := os.Stat(f); err != nil || st.Size() == 0 {
					t.Errorf("after the merge, %s: %v (empty or missing)", f, err)
				}
			}
			// Shards that did not measure their subject: the merge, in the
			// environment the recipe gives it, fails the pipeline (exit 3).
			writeFakeShards(t, p.reports, outcome.Unavailable)
			code, _, errOut = run(t, append([]string{"GITHUB_STEP_SUMMARY="}, p.env...), args...)
			if code != 3 || !strings.Contains(errOut, "did not measure their subject c (unavailable)") {
				t.Errorf("the recipe's merge of shards whose subject was unavailable: exit %d; want 3 naming why\n%s", code, errOut)
			}
		})
	}
}

// recipeDocs are the YAML documents of docs/recipes/name.
func recipeDocs(t *testing.T, name string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("../../docs/recipes", name))
	if err != nil {
		t.Fatal(err)
	}
	var docs []map[string]any
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var d map[string]any
		if err := dec.Decode(&d); err != nil {
			if err.Error() == "EOF" {
				return docs
			}
			t.Fatalf("%s: %v", name, err)
		}
		docs = append(docs, d)
	}
}

// recipeText is docs/recipes/name as it is.
func recipeText(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("../../docs/recipes", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// get walks maps by key; nil where a key is missing.
func get(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func list(v any) []any {
	if l, ok := v.([]any); ok {
		return l
	}
	if v == nil {
		return nil
	}
	return []any{v}
}

// words splits a command line as the CI's shell does (bash, globs left
// alone), in dir with env, without running it.
func words(t *testing.T, line, dir string, env map[string]string) []string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("bash", "-c", "set -f; printf '%s\\0' "+line)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "PWD=" + dir, "HALEBENCH_IMAGE=" + jobImage, "RUNNER_TEMP=" + runnerTemp}
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("splitting %q: %v", line, err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
}

// What words gives $HALEBENCH_IMAGE (a job's own tag for halebench's
// image) and $RUNNER_TEMP (GitHub's folder for the job's own files).
const (
	jobImage   = "halebench:ci-the-job"
	runnerTemp = "/runner/temp"
)

// dockerRun reads `docker run [--rm] [--user U] [--group-add G] [-e
// NAME[=V]] [-v HOST:CTR[:ro]] "$HALEBENCH_IMAGE" ARGS…`; hostEnv is what
// -e NAME passes on.
func dockerRun(t *testing.T, w []string, hostEnv map[string]string) containerCmd {
	t.Helper()
	c := containerCmd{env: map[string]string{}, mounts: map[string]string{}, ro: map[string]bool{}}
	if len(w) < 3 || w[0] != "docker" || w[1] != "run" {
		t.Fatalf("%q: not a docker run", w)
	}
	i := 2
	for ; i < len(w) && strings.HasPrefix(w[i], "-"); i++ {
		switch w[i] {
		case "--rm":
		case "--user":
			i++
			c.user = w[i]
		case "--group-add":
			i++
			c.groups = append(c.groups, w[i])
		case "-e":
			i++
			// -e NAME is in the container's environment (docker inspect
			// shows it) whether or not the host has it
			name, val, ok := strings.Cut(w[i], "=")
			if !ok {
				val = hostEnv[name]
			}
			c.env[name] = val
		case "-v":
			i++
			parts := strings.Split(w[i], ":")
			c.mounts[parts[1]] = parts[0]
			c.ro[parts[1]] = len(parts) == 3 && parts[2] == "ro"
		default:
			t.Fatalf("%q: docker flag %s not understood here", w, w[i])
		}
	}
	if i >= len(w) || w[i] != jobImage {
		t.Fatalf("%q: not halebench's image under the job's own tag (\"$HALEBENCH_IMAGE\"; a shared halebench:latest is retagged by every job on the engine)", w)
	}
	c.args = w[i+1:]
	return c
}

// imageWorkdir is halebench's image's WORKDIR (the suite), where a
// relative path in its arguments starts.
func imageWorkdir(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../../Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	dir := ""
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) == 2 && f[0] == "WORKDIR" {
			dir = f[1]
		}
	}
	return dir
}

// hostOf is where a container's path is on the host, through its mounts;
// "" where the path is the container's own (gone with it).
func (c containerCmd) hostOf(t *testing.T, p string) string {
	if !path.IsAbs(p) {
		p = path.Join(imageWorkdir(t), p)
	}
	best := ""
	for ctr := range c.mounts {
		if (p == ctr || strings.HasPrefix(p, ctr+"/")) && len(ctr) > len(best) {
			best = ctr
		}
	}
	if best == "" {
		return ""
	}
	return filepath.Join(c.mounts[best], strings.TrimPrefix(p, best))
}

// parseRun puts a shard's arguments through run's own flags and --shard
// resolution with its container's environment: its part and where its
// report goes on the host.
func parseRun(t *testing.T, c containerCmd) (plan.Spec, string) {
	t.Helper()
	if len(c.args) == 0 || c.args[0] != "run" {
		t.Fatalf("%q: not halebench run", c.args)
	}
	var o runOptions
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	o.addFlags(fs)
	if _, err := parseN(fs, c.args[1:], "", 0, ""); err != nil {
		t.Fatalf("%q: %v", c.args, err)
	}
	sp, ok, err := plan.Resolve(o.shard.Spec, o.shard.Shards, func(k string) string { return c.env[k] })
	if err != nil || !ok {
		t.Fatalf("%q with %v: sharded %v: %v", c.args, c.env, ok, err)
	}
	results := c.hostOf(t, o.ho.ResultsDir)
	if results == "" {
		t.Fatalf("%q: the report goes to %s, inside the container (no mount)", c.args, o.ho.ResultsDir)
	}
	return sp, results
}

// mergeArgs are the merge's arguments with its container's paths put on
// the host (a glob expanded there, as the recipe's shell does), and the
// files it writes.
func mergeArgs(t *testing.T, c containerCmd) (args, outputs []string) {
	t.Helper()
	if len(c.args) == 0 || c.args[0] != "merge" {
		t.Fatalf("%q: not halebench merge", c.args)
	}
	for i, a := range c.args {
		flagName, val, isFlag := strings.Cut(a, "=")
		if !isFlag {
			flagName, val = "", a
		}
		if !path.IsAbs(val) {
			args = append(args, a)
			continue
		}
		host := c.hostOf(t, val)
		if host == "" {
			t.Errorf("the merge names %s, inside its container (no mount): lost with it", val)
		}
		switch {
		case isFlag:
			args = append(args, flagName+"="+host)
			outputs = append(outputs, host)
		case i > 0 && c.args[i-1] == "-o":
			args = append(args, host)
			outputs = append(outputs, host)
		case strings.Contains(host, "*"):
			found, _ := filepath.Glob(host)
			args = append(args, found...)
		default:
			args = append(args, host)
		}
	}
	return args, outputs
}

// mkdirs are the folders a `mkdir -p DIR…` line makes in dir.
func mkdirs(t *testing.T, line, dir string) []string {
	t.Helper()
	w := words(t, line, dir, nil)
	if len(w) < 3 || w[0] != "mkdir" || w[1] != "-p" {
		t.Fatalf("%q: want mkdir -p DIR…", line)
	}
	var out []string
	for _, d := range w[2:] {
		out = append(out, filepath.Join(dir, d))
	}
	return out
}

// wantShard checks a shard's resolved part.
func wantShard(t *testing.T, sp plan.Spec, k, n int) {
	t.Helper()
	if sp.K != k || sp.N != n {
		t.Errorf("shard %d of %d resolves to %s (from %s)", k, n, sp, sp.From)
	}
}

// scriptLine is the one line of a script holding what.
func scriptLine(t *testing.T, script any, what string) string {
	t.Helper()
	var found []string
	for _, l := range list(script) {
		if s, _ := l.(string); strings.Contains(s, what) {
			found = append(found, s)
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d lines hold %q; want one", len(found), what)
	}
	return found[0]
}

// writeFakeShards writes the reports of a made-up count-only run of three
// benches, shard K's at files[K-1], its subject (c) subject.
func writeFakeShards(t *testing.T, files []string, subject outcome.Status) {
	t.Helper()
	benches := []string{"fn_call", "json_parse", "loop_overhead"}
	p := plan.Split(len(files), plan.Costs{Of: map[string]int64{"fn_call": 1, "json_parse": 5, "loop_overhead": 1}, By: "test"})
	for i, f := range files {
		k := i + 1
		r := &report.Report{Schema: report.Schema, RunID: fmt.Sprint("run-", k), Status: outcome.OK, Subject: "c", SubjectStatus: string(subject),
			Host:       report.Host{HostInfo: report.HostInfo{Hostname: fmt.Sprint("runner-", k)}},
			Count:      &report.Count{Mode: "only", Runs: 2, CostSeconds: 1},
			Categories: []report.Category{{Name: "all", Title: "All", Benches: benches}},
			Shard:      &report.Shard{Index: k, Total: len(files), SuiteBenches: p.Benches, Benches: p.Part(k), Digest: p.Digest, SuiteSourcesDigest: "sha256:5555555555555555555555555555555555555555555555555555555555555555"}}
		for _, name := range p.Part(k) {
			r.Benches = append(r.Benches, &report.Bench{Name: name, Category: "all", Status: outcome.OK, CountVerdict: outcome.OK,
				SubjectResult: &report.Lang{Status: outcome.OK, Count: &report.CountLane{Ir: 1234, Verdict: outcome.OK}}, Comparatives: map[string]*report.Lang{}})
		}
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := report.WriteFile(f, r); err != nil {
			t.Fatal(err)
		}
	}
}

// distinct checks that no two shards' reports land on one file.
func distinct(t *testing.T, files []string) {
	t.Helper()
	s := append([]string(nil), files...)
	sort.Strings(s)
	for i := 1; i < len(s); i++ {
		if s[i] == s[i-1] {
			t.Errorf("two shards' reports land on %s", s[i])
		}
	}
}

func sameSet(t *testing.T, what string, got, want []string) {
	t.Helper()
	g, w := append([]string(nil), got...), append([]string(nil), want...)
	sort.Strings(g)
	sort.Strings(w)
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s: %v; want %v", what, g, w)
	}
}

// docs/ci.md shows each recipe file whole, as it is.
func TestRecipesInDocs(t *testing.T) {
	doc, err := os.ReadFile("../../docs/ci.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"github-shards.yml", "gitlab-shards.yml", "k8s-indexed-job.yaml"} {
		data, err := os.ReadFile(filepath.Join("../../docs/recipes", name))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(doc), "```yaml\n"+string(data)+"```\n") {
			t.Errorf("docs/ci.md does not show docs/recipes/%s as it is (copy the file into its yaml block)", name)
		}
	}
}
