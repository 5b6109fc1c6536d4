package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// shardBenches are five of the C stand-in's cheapest counted benches.
const shardBenches = "tree_fanout,form_vec_get,coord_with_churn,fn_scratch_work,vec_amortized"

// Bad --shard input is refused before the engine is asked.
func TestShardBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		env  []string
		want string
	}{
		{[]string{"--shard=0/3"}, nil, "shard 0 of 3 does not exist"},
		{[]string{"--shard=4/3"}, nil, "shard 4 of 3 does not exist"},
		{[]string{"--shard=x"}, nil, "want K/N"},
		{[]string{"--shard=auto"}, []string{"CI_NODE_INDEX=", "CI_NODE_TOTAL=", "JOB_COMPLETION_INDEX="}, "no CI shard variables"},
		{[]string{"--shard=auto"}, []string{"JOB_COMPLETION_INDEX=1", "HALEBENCH_SHARDS="}, "--shards=N or HALEBENCH_SHARDS"},
		{[]string{"--shard=1/2", "--update-baselines"}, nil, "record baselines unsharded"},
		{[]string{"--shard-costs=x.json"}, nil, "give --shard=K/N too"},
	} {
		args := append([]string{"run", "--suite=../..", "--subject=c", "--lang=c", "--count=only", "--baselines=../../baselines-c.json",
			"--results=" + t.TempDir(), "--bench=" + shardBenches}, c.args...)
		code, _, errOut := run(t, append([]string{"DOCKER_HOST=unix:///nonexistent.sock"}, c.env...), args...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}

// An unsharded count-only run and the merge of its three shards, run one
// after another on this engine, are the same run: the same benches once
// each, every count exactly equal, the same verdicts and exit code. A
// shard given twice, or one missing, is refused.
func TestShardedRunMergesToUnsharded(t *testing.T) {
	enginetest.Connect(t)
	args := []string{"run", "--suite=../..", "--subject=c", "--lang=c", "--count=only",
		"--baselines=../../baselines-c.json", "--bench=" + shardBenches, "--json", "--progress=plain"}
	code0, out, errOut := run(t, nil, append(args, "--results="+t.TempDir())...)
	if code0 == 2 {
		t.Fatalf("unsharded run: exit 2\n%s", errOut)
	}
	var whole report.Report
	if err := json.Unmarshal([]byte(out), &whole); err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, k := range []string{"1/3", "2/3", "3/3"} {
		dir := t.TempDir()
		if code, _, errOut := run(t, nil, append(args, "--results="+dir, "--shard="+k)...); code == 2 {
			t.Fatalf("shard %s: exit 2\n%s", k, errOut)
		}
		found, _ := filepath.Glob(filepath.Join(dir, "run-*.json"))
		if len(found) != 1 {
			t.Fatalf("shard %s wrote %v", k, found)
		}
		files = append(files, found[0])
	}
	dir := t.TempDir()
	junit, html, out2 := filepath.Join(dir, "junit.xml"), filepath.Join(dir, "merged.html"), filepath.Join(dir, "merged.json")
	code, stdout, errOut := run(t, []string{"GITHUB_STEP_SUMMARY="}, append([]string{"merge", "--json", "--junit", junit, "--html", html, "-o", out2}, files...)...)
	if code != code0 {
		t.Fatalf("merge: exit %d, the unsharded run %d\n%s", code, code0, errOut)
	}
	var merged report.Report
	if err := json.Unmarshal([]byte(stdout), &merged); err != nil {
		t.Fatal(err)
	}
	sameRun(t, &whole, &merged)
	for _, f := range []string{junit, html, out2} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("merge did not write %s: %v", f, err)
		}
	}
	for _, bad := range [][]string{{files[0], files[0], files[1], files[2]}, {files[0], files[1]}} {
		code, _, errOut := run(t, nil, append([]string{"merge"}, bad...)...)
		if code != 2 || !strings.Contains(errOut, files[0]) {
			t.Errorf("merge %v: exit %d, %q; want 2 naming %s", bad, code, errOut, files[0])
		}
	}
}

// sameRun checks a merged report against the unsharded run's: its
// benches, status, sources, and each bench's counts and verdicts.
func sameRun(t *testing.T, whole, merged *report.Report) {
	t.Helper()
	if merged.Status != whole.Status || merged.SourcesDigest != whole.SourcesDigest {
		t.Errorf("merged status %s sources %s; unsharded %s %s", merged.Status, merged.SourcesDigest, whole.Status, whole.SourcesDigest)
	}
	if len(merged.Shard.Parts) != 3 {
		t.Errorf("merged shard field %+v; want three parts", merged.Shard)
	}
	names := func(r *report.Report) []string {
		var n []string
		for _, b := range r.Benches {
			n = append(n, b.Name)
		}
		return n
	}
	if got, want := names(merged), names(whole); !reflect.DeepEqual(got, want) {
		t.Fatalf("merged benches %v; unsharded %v", got, want)
	}
	var want []string // the suite's benches: not those the baselines name and the suite lost
	for _, b := range whole.Benches {
		if b.Status != outcome.NoBench {
			want = append(want, b.Name)
		}
	}
	sort.Strings(want)
	if !reflect.DeepEqual(merged.Shard.SuiteBenches, want) {
		t.Errorf("suite benches %v; want %v", merged.Shard.SuiteBenches, want)
	}
	for i, b := range merged.Benches {
		sameBench(t, b, whole.Benches[i])
	}
}

// sameBench checks a merged bench against the unsharded run's: the same
// statuses, and the same instructions in every counted run. Not compared:
// the counts of a bench both runs call count_unstable (a threaded program:
// its count depends on how its threads interleaved, and differs from run
// to run, sharded or not), and a bench the subject has no source for.
func sameBench(t *testing.T, b, w *report.Bench) {
	t.Helper()
	if b.Status != w.Status || b.CountVerdict != w.CountVerdict || (b.SubjectResult == nil) != (w.SubjectResult == nil) {
		t.Errorf("%s: status %s count %s; unsharded %s %s", b.Name, b.Status, b.CountVerdict, w.Status, w.CountVerdict)
		return
	}
	if w.SubjectResult == nil && w.Status == outcome.NoSubjectSource {
		return
	}
	if b.SubjectResult == nil {
		t.Errorf("%s: no subject result (%s)", b.Name, b.Status)
		return
	}
	bc, wc := b.SubjectResult.Count, w.SubjectResult.Count
	if bc != nil && wc != nil && bc.Verdict == outcome.CountUnstable && wc.Verdict == outcome.CountUnstable {
		return
	}
	if bc == nil || wc == nil || bc.Ir != wc.Ir || bc.Ir == 0 || !reflect.DeepEqual(irs(bc), irs(wc)) {
		t.Errorf("%s: counted %+v; unsharded %+v", b.Name, bc, wc)
	}
}

func irs(c *report.CountLane) []uint64 {
	var out []uint64
	for _, r := range c.Runs {
		out = append(out, r.Ir)
	}
	return out
}

// writeShards writes the two shard reports of a made-up count-only run,
// shard 2's one bench regressed, and returns their paths.
func writeShards(t *testing.T) []string {
	t.Helper()
	benches := []string{"fn_call", "json_parse", "loop_overhead"}
	p := plan.Split(2, plan.Costs{Of: map[string]int64{"fn_call": 1, "json_parse": 5, "loop_overhead": 1}, By: "test"})
	dir := t.TempDir()
	var files []string
	for k := 1; k <= 2; k++ {
		r := &report.Report{Schema: report.Schema, RunID: fmt.Sprint("run-", k), Status: outcome.OK, Subject: "c", SubjectStatus: "available",
			Host:       report.Host{HostInfo: report.HostInfo{Hostname: fmt.Sprint("runner-", k)}},
			Count:      &report.Count{Mode: "only", Runs: 2, CostSeconds: 1},
			Categories: []report.Category{{Name: "all", Title: "All", Benches: benches}},
			Shard:      &report.Shard{Index: k, Total: 2, SuiteBenches: p.Benches, Benches: p.Part(k), Digest: p.Digest, SuiteSourcesDigest: "sha256:5555555555555555555555555555555555555555555555555555555555555555"}}
		for _, name := range p.Part(k) {
			b := &report.Bench{Name: name, Category: "all", Status: outcome.OK, CountVerdict: outcome.OK,
				SubjectResult: &report.Lang{Status: outcome.OK, Count: &report.CountLane{Ir: 1234, Verdict: outcome.OK}}, Comparatives: map[string]*report.Lang{}}
			if k == 2 {
				b.Status, b.CountVerdict, r.Status = outcome.Regression, outcome.Regression, outcome.Regression
			}
			r.Benches = append(r.Benches, b)
		}
		f := filepath.Join(dir, fmt.Sprintf("shard%d.json", k))
		if err := report.WriteFile(f, r); err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	return files
}

// merge's verb: the grid on stdout, the merged run's exit code, the CI
// outputs; the refusals exit 2 naming the file.
func TestMergeVerb(t *testing.T) {
	files := writeShards(t)
	junit := filepath.Join(t.TempDir(), "junit.xml")
	code, out, errOut := run(t, []string{"GITHUB_STEP_SUMMARY="}, "merge", "--junit", junit, files[1], files[0])
	if code != 1 || !strings.Contains(out, "json_parse") || !strings.Contains(out, "fn_call") || !strings.Contains(errOut, "verdict regression") {
		t.Fatalf("merge: exit %d\n%s\n%s", code, out, errOut)
	}
	if data, err := os.ReadFile(junit); err != nil || !strings.Contains(string(data), "loop_overhead") {
		t.Fatalf("junit: %v\n%s", err, data)
	}
	link := filepath.Join(t.TempDir(), "link.json")
	os.Symlink(files[0], link)
	for _, c := range []struct {
		files []string
		want  string
	}{
		{[]string{files[0], files[0]}, files[0] + ": shard 1/2 is given twice"},
		{[]string{files[0]}, "shard(s) 2 of them are missing"},
		{[]string{link, files[1]}, link + ": not a report"},
		{[]string{files[0], "../../baselines-c.json"}, "baselines-c.json: not a report"},
		// A digest merge names by its first digits: once a panic.
		{shortDigest(t, files), `partition_digest "sha256:abc" is not a sha256 digest`},
	} {
		code, _, errOut := run(t, nil, append([]string{"merge"}, c.files...)...)
		if code != 2 || !strings.Contains(errOut, c.want) || strings.Contains(errOut, "panic") || strings.Contains(errOut, "goroutine") {
			t.Errorf("merge %v: exit %d, %q; want 2 and %q", c.files, code, errOut, c.want)
		}
	}
}

// shortDigest copies the shard reports with partition_digest "sha256:abc"
// in each (they still agree with each other).
func shortDigest(t *testing.T, files []string) []string {
	t.Helper()
	dir := t.TempDir()
	var out []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatal(err)
		}
		doc["shard"].(map[string]any)["partition_digest"] = "sha256:abc"
		data, _ = json.Marshal(doc)
		p := filepath.Join(dir, filepath.Base(f))
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
	}
	return out
}
