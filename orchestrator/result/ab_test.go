package result

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// abShards are the n shards of one ab over six benches, each bench with
// its own paired samples and ratio, written under a temporary folder.
func abShards(t *testing.T, n int) []ABShard {
	t.Helper()
	costs := plan.Costs{Of: map[string]int64{}, By: "cells (no recorded cost)"}
	for i := 0; i < 6; i++ {
		costs.Of[fmt.Sprintf("b%d", i)] = int64(1 + i%3)
	}
	part := plan.Split(n, costs)
	dir := t.TempDir()
	var out []ABShard
	for k := 1; k <= n; k++ {
		r := &report.Result{Schema: report.ABSchema, RunID: fmt.Sprintf("ab-%d", k), Subject: "c", A: "suite a", B: "suite b",
			Threshold: 0.02, Confidence: 0.95, Looks: []int{6, 60}, Seed: 7, Rounds: 6 + k, StoppedBy: "resolved", ElapsedNs: int64(k) * 1e9,
			Host: report.Host{HostInfo: report.HostInfo{Hostname: fmt.Sprintf("runner-%d", k)}},
			Shard: &report.Shard{Index: k, Total: n, From: "--shard", SuiteBenches: part.Benches, Benches: part.Part(k),
				BalancedBy: part.BalancedBy, Loads: part.Loads, Digest: part.Digest, SuiteSourcesDigest: "sha256:5555555555555555555555555555555555555555555555555555555555555555"}}
		for _, name := range []string{"A", "B"} {
			r.Sides = append(r.Sides, report.Side{Name: name, What: "suite " + name,
				Images:      map[string]report.Toolchain{"c": {Status: "available", Digest: "sha256:tc"}},
				BenchImages: map[string]report.BenchImage{"c": {Digest: "sha256:bench" + name}}})
		}
		for i, name := range part.Part(k) {
			ratio := 1 + float64(len(name)+i)/100
			r.Benches = append(r.Benches, report.ABBench{Name: name, Lang: "c", Verdict: outcome.Slower, Ratio: ratio, RatioLow: ratio - 0.01, RatioHigh: ratio + 0.01,
				SamplesA: []int64{100, 101}, SamplesB: []int64{int64(100 * ratio), int64(101 * ratio)}, Rounds: 2})
		}
		out = append(out, writeAB(t, dir, fmt.Sprintf("ab-%d.json", k), r))
	}
	return out
}

func writeAB(t *testing.T, dir, name string, r *report.Result) ABShard {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := report.WriteFile(path, r); err != nil {
		t.Fatal(err)
	}
	d, err := readShard(path)
	if err != nil {
		t.Fatal(err)
	}
	return ABShard{File: path, Result: d.AB}
}

// The merge of three ab shards holds every bench once with its shard's
// paired samples, ratio and interval as they were, each shard's host under
// shard.parts, in the order of an unsharded ab (by bench).
func TestMergeABKeepsPairedRatios(t *testing.T) {
	shards := abShards(t, 3)
	want := map[string]report.ABBench{}
	for _, s := range shards {
		for _, b := range s.Result.Benches {
			want[b.Name] = b
		}
	}
	m, err := MergeAB([]ABShard{shards[2], shards[0], shards[1]}, "2026-01-02T03:04:05Z")
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Benches) != 6 || m.Shard.Index != 0 || len(m.Shard.Parts) != 3 || m.Rounds != 9 || m.ElapsedNs != 3e9 || m.Schema != report.ABSchema {
		t.Fatalf("merged: %d benches, shard %+v, rounds %d, elapsed %d", len(m.Benches), m.Shard, m.Rounds, m.ElapsedNs)
	}
	if m.SourcesDigest == "" || m.SourcesDigest != shards[0].Result.Shard.SuiteSourcesDigest {
		t.Errorf("merged sources digest %q; want the whole ab's, %q", m.SourcesDigest, shards[0].Result.Shard.SuiteSourcesDigest)
	}
	for i, b := range m.Benches {
		if i > 0 && m.Benches[i-1].Name >= b.Name {
			t.Errorf("benches out of order: %s after %s", b.Name, m.Benches[i-1].Name)
		}
		if !reflect.DeepEqual(b, want[b.Name]) {
			t.Errorf("%s: merged %+v, its shard had %+v", b.Name, b, want[b.Name])
		}
	}
	for k, p := range m.Shard.Parts {
		if p.Index != k+1 || p.Host.Hostname != fmt.Sprintf("runner-%d", k+1) || p.File != shards[k].File {
			t.Errorf("part %d: %+v", k, p)
		}
	}
}

// Shards of another ab, twice, missing, or a file that is not an ab shard
// are refused, naming the file.
func TestMergeABRefuses(t *testing.T) {
	shards := abShards(t, 3)
	dir := t.TempDir()
	otherB := *shards[1].Result
	otherB.B = "suite c"
	otherMetric := *shards[1].Result
	otherMetric.Metric, otherMetric.Unit = "memory", "KiB"
	otherImage := *shards[1].Result
	otherImage.Sides = append([]report.Side(nil), otherImage.Sides...)
	otherImage.Sides[1].BenchImages = map[string]report.BenchImage{"c": {Digest: "sha256:other"}}
	two := abShards(t, 2)
	var short []ABShard
	for i, sh := range shards {
		r := *sh.Result
		part := *r.Shard
		part.Digest, r.Shard = "sha256:abc", &part
		short = append(short, ABShard{File: fmt.Sprintf("short%d.json", i+1), Result: &r})
	}
	for _, c := range []struct {
		name   string
		shards []ABShard
		file   string
		want   string
	}{
		{"twice", []ABShard{shards[0], shards[0], shards[1], shards[2]}, shards[0].File, "given twice"},
		{"missing", []ABShard{shards[0], shards[1]}, shards[0].File, "shard(s) 3 of them are missing"},
		{"another B", []ABShard{shards[0], writeAB(t, dir, "b.json", &otherB), shards[2]}, filepath.Join(dir, "b.json"), "side B is suite c here"},
		{"another metric", []ABShard{shards[0], writeAB(t, dir, "m.json", &otherMetric), shards[2]}, filepath.Join(dir, "m.json"), "--metric is memory here"},
		{"another image", []ABShard{shards[0], writeAB(t, dir, "i.json", &otherImage), shards[2]}, filepath.Join(dir, "i.json"), "side B's c bench image"},
		{"another N", []ABShard{shards[0], two[1]}, two[1].File, "N disagrees"},
		{"a short partition digest", short, short[0].File, `partition_digest "sha256:abc" is not a sha256 digest`},
	} {
		_, err := MergeAB(c.shards, "now")
		if err == nil || !strings.Contains(err.Error(), c.file) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want a refusal naming %s and %q", c.name, err, c.file, c.want)
		}
	}
	unsharded := *shards[0].Result
	unsharded.Shard = nil
	for name, data := range map[string][]byte{"unsharded.json": mustJSON(t, &unsharded), "junk.json": []byte("{")} {
		path := filepath.Join(dir, name)
		os.WriteFile(path, data, 0o644)
		if _, err := readShard(path); err == nil || !strings.Contains(err.Error(), path) {
			t.Errorf("%s: %v; want a refusal naming it", name, err)
		}
	}
}

func mustJSON(t *testing.T, v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
