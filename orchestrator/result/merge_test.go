package result

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/stamp"
)

var suiteNames = []string{"alpha", "beta", "delta", "epsilon", "gamma", "zeta"}

// shards are the n reports of one made-up sharded run: each shard's rows
// hold counts, shard 2 regressed on its first bench, and each ran on a
// host of its own.
func shards(n int) []Shard {
	costs := plan.Costs{Of: map[string]int64{}, By: "test"}
	for i, b := range suiteNames {
		costs.Of[b] = int64(10 * (i + 1))
	}
	p := plan.Split(n, costs)
	var out []Shard
	for k := 1; k <= n; k++ {
		r := &report.Report{
			Schema: report.Schema, Halebench: &stamp.Tool{Version: fmt.Sprintf("v0.%d", k)}, RunID: fmt.Sprintf("run-%d", k), Status: outcome.OK, Subject: "c", SubjectStatus: "available",
			Host:     report.Host{HostInfo: report.HostInfo{Hostname: fmt.Sprintf("runner-%d", k)}},
			Settings: report.Settings{TimeoutPerSample: "2m0s", Languages: []string{"c"}},
			Base:     report.Base{ID: "sha256:base"}, Baselines: "baselines-c.json",
			Images:        map[string]report.Toolchain{"c": {Status: outcome.Available, Digest: "sha256:tc"}},
			BenchImages:   map[string]report.BenchImage{"c": {Digest: "sha256:bi"}},
			Gate:          report.Gate{Alpha: 0.01, Machine: "same"},
			Count:         &report.Count{Mode: "only", Languages: []string{"c"}, Runs: 2, CostSeconds: float64(k), Cells: len(p.Part(k))},
			Categories:    []report.Category{{Name: "all", Benches: suiteNames}},
			SourcesDigest: "sha256:" + strings.Repeat(fmt.Sprint(k), 64), // the part's own sources
			Shard: &report.Shard{Index: k, Total: n, SuiteBenches: p.Benches, Benches: p.Part(k), BalancedBy: p.BalancedBy,
				Loads: p.Loads, Digest: p.Digest, SuiteSourcesDigest: "sha256:5555555555555555555555555555555555555555555555555555555555555555"},
		}
		for i, name := range p.Part(k) {
			b := &report.Bench{Name: name, Status: outcome.OK, CountVerdict: outcome.OK,
				SubjectResult: &report.Lang{Count: &report.CountLane{Ir: uint64(1000 + len(name))}}}
			if k == 2 && i == 0 {
				b.Status, r.Status, r.FlaggedBy = outcome.Regression, outcome.Regression, []string{"instructions"}
			}
			r.Benches = append(r.Benches, b)
		}
		out = append(out, Shard{File: fmt.Sprintf("shard%d.json", k), Report: r})
	}
	return out
}

func TestMergeJoinsAsTheyAre(t *testing.T) {
	in := shards(3)
	in[0], in[2] = in[2], in[0] // any order
	m, err := Reports(in, "2026-01-01T00:00:00Z")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, b := range m.Benches {
		names = append(names, b.Name)
		if want := uint64(1000 + len(b.Name)); b.SubjectResult.Count.Ir != want {
			t.Errorf("%s: count %d; want %d as its shard counted it", b.Name, b.SubjectResult.Count.Ir, want)
		}
	}
	if !reflect.DeepEqual(names, suiteNames) {
		t.Fatalf("benches %v; want each once in grid order %v", names, suiteNames)
	}
	if m.Status != outcome.Regression || !reflect.DeepEqual(m.FlaggedBy, []string{"instructions"}) {
		t.Fatalf("status %s flagged %v; want shard 2's regression", m.Status, m.FlaggedBy)
	}
	if m.Count.CostSeconds != 6 || m.Count.Cells != len(suiteNames) || m.SourcesDigest != "sha256:5555555555555555555555555555555555555555555555555555555555555555" {
		t.Fatalf("count %+v, sources %s; want cost 1+2+3, every cell, the suite's digest", m.Count, m.SourcesDigest)
	}
	sh := m.Shard
	if sh.Index != 0 || len(sh.Parts) != 3 || !reflect.DeepEqual(sh.Benches, suiteNames) {
		t.Fatalf("shard field %+v", sh)
	}
	for k, p := range sh.Parts {
		if p.Index != k+1 || p.Host.Hostname != fmt.Sprintf("runner-%d", k+1) || p.File != fmt.Sprintf("shard%d.json", k+1) {
			t.Errorf("part %d: %+v; want its shard's host and file", k+1, p)
		}
		if p.Halebench == nil || p.Halebench.Version != fmt.Sprintf("v0.%d", k+1) {
			t.Errorf("part %d names halebench %v; want the one that made its shard", k+1, p.Halebench)
		}
	}
	if *m.Halebench != *stamp.This() {
		t.Errorf("the merged report names halebench %v; want the one that merged it, %v", m.Halebench, stamp.This())
	}
	if in[1].Report.Shard.Parts != nil || len(in[0].Report.Benches) == len(suiteNames) {
		t.Fatal("merging changed a shard's own report")
	}
}

// A shard that counted no cell (every bench of its part a guard, as
// vec_queue_pop's shard of Hale's catalogue was) read no Valgrind: it
// agrees with the shards that did, and the merge names theirs.
func TestMergeShardThatCountedNothing(t *testing.T) {
	in := shards(3)
	for _, s := range in[1:] {
		s.Report.Count.Valgrind = "valgrind-3.24.0"
	}
	in[0].Report.Count.Cells = 0
	m, err := Reports(in, "x")
	if err != nil {
		t.Fatal(err)
	}
	if m.Count.Valgrind != "valgrind-3.24.0" {
		t.Fatalf("merged count lane %+v; want the Valgrind the counting shards used", m.Count)
	}
}

// Each way the reports may not be one run's is refused, naming the file
// and why.
func TestMergeRefuses(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func([]Shard) []Shard
		file string
		why  string
	}{
		{"1/3 twice", func(s []Shard) []Shard { return []Shard{s[0], s[0]} }, "shard1.json", "shard 1/3 is given twice"},
		{"1/3 with 2/3 alone", func(s []Shard) []Shard { return s[:2] }, "shard1.json", "shard(s) 3 of them are missing"},
		{"not a shard", func(s []Shard) []Shard { s[1].Report.Shard = nil; return s }, "shard2.json", "no shard field"},
		{"a merged report", func(s []Shard) []Shard {
			m, _ := Reports(shards(3), "x")
			return append(s, Shard{File: "merged.json", Report: m})
		}, "merged.json", "already a merge of 3 shards"},
		{"interrupted", func(s []Shard) []Shard { s[2].Report.Status = outcome.Interrupted; return s }, "shard3.json", "interrupted"},
		{"N disagrees", func(s []Shard) []Shard { return append(s[:1], shards(2)[1]) }, "shard2.json", "N disagrees"},
		{"another suite", func(s []Shard) []Shard {
			s[1].Report.Shard.SuiteBenches = append([]string{"aaa"}, s[1].Report.Shard.SuiteBenches...)
			return s
		}, "shard2.json", "a different suite than shard1.json's: +aaa"},
		{"other sources", func(s []Shard) []Shard {
			s[2].Report.Shard.SuiteSourcesDigest = "sha256:6666666666666666666666666666666666666666666666666666666666666666"
			return s
		}, "shard3.json", "different bench sources"},
		{"other partition", func(s []Shard) []Shard {
			s[1].Report.Shard.Digest = "sha256:6666666666666666666666666666666666666666666666666666666666666666"
			return s
		}, "shard2.json", "a different partition"},
		{"another subject build", func(s []Shard) []Shard {
			s[1].Report.Images = map[string]report.Toolchain{"c": {Status: outcome.Available, Digest: "sha256:other"}}
			return s
		}, "shard2.json", "built differently than shard1.json: the c toolchain"},
		{"another bench image", func(s []Shard) []Shard { s[2].Report.BenchImages = nil; return s }, "shard3.json", "the c bench image is (none) here"},
		{"other iters", func(s []Shard) []Shard { s[1].Report.Iters = 3; return s }, "shard2.json", "--iters is 3 here, 0 there"},
		{"other count mode", func(s []Shard) []Shard { s[1].Report.Count.Mode = "auto"; return s }, "shard2.json", "--count is auto here, only there"},
		{"count off", func(s []Shard) []Shard { s[2].Report.Count = nil; return s }, "shard3.json", "--count is off here, only there"},
		{"other strictness", func(s []Shard) []Shard { s[1].Report.Gate.Strict = true; return s }, "shard2.json", "--strict is true here"},
		{"other alpha", func(s []Shard) []Shard { s[1].Report.Gate.Alpha = 0.05; return s }, "shard2.json", "--alpha is 0.05 here"},
		{"other confirm", func(s []Shard) []Shard { s[2].Report.Gate.Confirm = 7; return s }, "shard3.json", "--confirm is 7 here"},
		{"another Valgrind", func(s []Shard) []Shard {
			s[0].Report.Count.Valgrind, s[2].Report.Count.Valgrind = "valgrind-3.24.0", "valgrind-3.19.0"
			return s
		}, "shard3.json", "Valgrind is valgrind-3.19.0 here, valgrind-3.24.0 there"},
		{"other cache simulation", func(s []Shard) []Shard { s[1].Report.Count.NoCacheSim = true; return s }, "shard2.json", "--count-cache-sim is false here"},
		{"a bench outside its part", func(s []Shard) []Shard {
			s[1].Report.Benches = append(s[1].Report.Benches, s[0].Report.Benches[0])
			return s
		}, "shard2.json", "which is not shard 2's part"},
		{"a bench of its part missing", func(s []Shard) []Shard { s[2].Report.Benches = s[2].Report.Benches[1:]; return s }, "shard3.json", "has no row for it"},
		{"a bench in two shards", func(s []Shard) []Shard {
			s[1].Report.Shard.Benches = append([]string{s[0].Report.Benches[0].Name}, s[1].Report.Shard.Benches...)
			s[1].Report.Benches = append(s[1].Report.Benches, s[0].Report.Benches[0])
			return s
		}, "shard2.json", "is in two shards"},
		{"a shard index past N", func(s []Shard) []Shard { s[2].Report.Shard.Index = 4; return s }, "shard3.json", "shard 4 of 3, which cannot be"},
		{"unsorted lists", func(s []Shard) []Shard { s[0].Report.Shard.SuiteBenches = []string{"b", "a"}; return s }, "shard1.json", "not sorted"},
		{"null bench", func(s []Shard) []Shard { s[0].Report.Benches = append(s[0].Report.Benches, nil); return s }, "shard1.json", "null"},
		// Digests a merge names by their first digits: a short one once
		// panicked on the slice, in every shard alike.
		{"a short partition digest", func(s []Shard) []Shard {
			for _, sh := range s {
				sh.Report.Shard.Digest = "sha256:abc"
			}
			return s
		}, "shard1.json", `partition_digest "sha256:abc" is not a sha256 digest`},
		{"a partition digest not hex", func(s []Shard) []Shard {
			s[0].Report.Shard.Digest = "sha256:" + strings.Repeat("Z", 64)
			return s
		}, "shard1.json", "partition_digest"},
		{"a sources digest without its algorithm", func(s []Shard) []Shard {
			s[1].Report.Shard.SuiteSourcesDigest = strings.Repeat("5", 64)
			return s
		}, "shard2.json", "suite_sources_digest"},
	} {
		_, err := Reports(c.edit(shards(3)), "x")
		rf, ok := err.(*Refusal)
		if !ok || rf.File != c.file || !strings.Contains(rf.Why, c.why) {
			t.Errorf("%s: %v; want %s refused for %q", c.name, err, c.file, c.why)
		}
	}
}

// A file is read as the hostile input it may be: no symlink, no
// non-report, no report of another schema.
func TestReadFileRefuses(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "shard1.json")
	if err := report.WriteFile(good, shards(1)[0].Report); err != nil {
		t.Fatal(err)
	}
	if d, err := readShard(good); err != nil || d.Run.Shard.Total != 1 {
		t.Fatalf("a good shard: %v", err)
	}
	link := filepath.Join(dir, "link.json")
	os.Symlink(good, link)
	garbage := filepath.Join(dir, "garbage.json")
	os.WriteFile(garbage, []byte("{\"schema\": [1,"), 0o644)
	plain := filepath.Join(dir, "plain.json")
	os.WriteFile(plain, []byte(`{"schema":"`+report.Schema+`","benches":[]}`), 0o644)
	tool := filepath.Join(dir, "tool.json")
	os.WriteFile(tool, []byte(`{"schema":"`+report.Schema+`","halebench":{"version":"v1","commit":"HEAD"},"benches":[]}`), 0o644)
	for path, why := range map[string]string{link: "symlink", garbage: "not a JSON report", plain: "not a shard", dir: "not a regular file", tool: "halebench.commit"} {
		_, err := readShard(path)
		if rf, ok := err.(*Refusal); !ok || rf.File != path || !strings.Contains(rf.Why, why) {
			t.Errorf("%s: %v; want it refused for %q", filepath.Base(path), err, why)
		}
	}
}
