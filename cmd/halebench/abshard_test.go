package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// ab and xproc refuse bad --shard input as run does (exit 2, saying why),
// before the engine is asked.
func TestABXprocShardBadInput(t *testing.T) {
	for _, verb := range [][]string{
		{"ab", "--suite=../..", "--subject=c", "--bench=fn_modular"},
		{"xproc", "--suite=../..", "--lang=c", "--results=" + t.TempDir()},
	} {
		for _, c := range []struct {
			args []string
			env  []string
			want string
		}{
			{[]string{"--shard=0/3"}, nil, "shard 0 of 3 does not exist"},
			{[]string{"--shard=4/3"}, nil, "shard 4 of 3 does not exist"},
			{[]string{"--shard=x"}, nil, "want K/N"},
			{[]string{"--shards=3"}, nil, "--shards=N goes with --shard=auto"},
			{[]string{"--shard=auto"}, []string{"CI_NODE_INDEX=", "CI_NODE_TOTAL=", "JOB_COMPLETION_INDEX="}, "no CI shard variables"},
			{[]string{"--shard=auto"}, []string{"JOB_COMPLETION_INDEX=1", "HALEBENCH_SHARDS="}, "--shards=N or HALEBENCH_SHARDS"},
		} {
			code, _, errOut := run(t, append([]string{"DOCKER_HOST=unix:///nonexistent.sock"}, c.env...), append(verb, c.args...)...)
			if code != 2 || !strings.Contains(errOut, c.want) {
				t.Errorf("%s %v: exit %d, stderr %q; want 2 and %q", verb[0], c.args, code, errOut, c.want)
			}
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"ab", "--suite=../..", "--subject=c", "--shard-costs=x.json"}, "give --shard=K/N too"},
		{[]string{"ab", "--suite=../..", "--subject=c", "--shard=1/2", "--shard-costs=/nonexistent.json"}, "--shard-costs"},
		{[]string{"xproc", "--suite=../..", "--lang=c", "--shard=1/2", "--shard-costs=x.json"}, "xproc balances its pairs by their rows"},
	} {
		code, _, errOut := run(t, []string{"DOCKER_HOST=unix:///nonexistent.sock"}, c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}

// halebench merge takes ab shards: the grid of every bench with its
// shard's ratio, exit 0; a shard missing or --junit exits 2 naming why.
func TestMergeABVerb(t *testing.T) {
	dir := t.TempDir()
	part := plan.Split(2, plan.Costs{Of: map[string]int64{"fn_call": 1, "fn_modular": 1, "loop_overhead": 1}, By: "cells"})
	var files []string
	for k := 1; k <= 2; k++ {
		r := &report.Result{Schema: report.ABSchema, Subject: "c", A: "suite a", B: "suite b", Threshold: 0.02, Looks: []int{6}, StoppedBy: "resolved",
			Shard: &report.Shard{Index: k, Total: 2, SuiteBenches: part.Benches, Benches: part.Part(k), Digest: part.Digest, SuiteSourcesDigest: "sha256:5555555555555555555555555555555555555555555555555555555555555555"}}
		for _, name := range part.Part(k) {
			r.Benches = append(r.Benches, report.ABBench{Name: name, Lang: "c", Verdict: outcome.Same, Ratio: 1.0123, RatioLow: 1.001, RatioHigh: 1.02})
		}
		path := filepath.Join(dir, fmt.Sprintf("ab-%d.json", k))
		if err := report.WriteFile(path, r); err != nil {
			t.Fatal(err)
		}
		files = append(files, path)
	}
	code, out, errOut := run(t, []string{"GITHUB_STEP_SUMMARY="}, append([]string{"merge"}, files...)...)
	if code != 0 || strings.Count(out, "1.012 [1.001, 1.020]") != 3 || !strings.Contains(out, "loop_overhead") {
		t.Fatalf("merge: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{files[0]}, files[0] + ": the ab has 2 shards and shard(s) 2 of them are missing"},
		{[]string{"--junit", filepath.Join(dir, "j.xml"), files[0], files[1]}, "ab shards have no JUnit form"},
	} {
		code, _, errOut := run(t, nil, append([]string{"merge"}, c.args...)...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("merge %v: exit %d, %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}
