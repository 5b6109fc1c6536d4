package harness_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/harness"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/result"
)

// A whole run and its two shards, on the fake engine: each shard runs its
// part only, shard 1 alone says the bench the baselines name and the
// suite lost, and their merge has the whole run's benches, verdicts,
// status and sources digest.
func TestFakeShardsMergeToTheWholeRun(t *testing.T) {
	base := `{"subject": "c", "benches": {"count": {"kind": "micro", "elapsed_ns": 1, "maxrss_kb": 1, "tolerance": 0.3},
		"spin": {"kind": "micro", "elapsed_ns": 900000, "maxrss_kb": 1000},
		"vanished": {"kind": "micro", "elapsed_ns": 5, "maxrss_kb": 1}}}`
	fresh := func(sp plan.Spec) *report.Report {
		o := fakeOptions(t, "c", "c", "")
		o.Shard = sp
		os.WriteFile(o.Baselines, []byte(base), 0o644)
		eng := &fakeEngine{elapsed: map[string]int64{"c": 5000}, check: map[string]string{"c": "n:1"}}
		res, _ := runFake(t, context.Background(), fakeEnv(fakeImages{}, eng, 2), o)
		if res == nil || res.Report == nil {
			t.Fatalf("shard %v: no report", sp)
		}
		return res.Report
	}
	whole := fresh(plan.Spec{})
	var parts []result.Shard
	var ran []string
	for k := 1; k <= 2; k++ {
		r := fresh(plan.Spec{K: k, N: 2, From: "--shard"})
		if r.Shard == nil || r.Shard.Index != k || r.Shard.SuiteSourcesDigest != whole.SourcesDigest {
			t.Fatalf("shard %d's field %+v; want its index and the whole run's sources %s", k, r.Shard, whole.SourcesDigest)
		}
		for _, b := range r.Benches {
			if b.Name == "vanished" && k != 1 {
				t.Errorf("shard %d says the lost bench; only shard 1 does", k)
			}
			ran = append(ran, b.Name)
		}
		parts = append(parts, result.Shard{File: "shard" + string(rune('0'+k)), Report: r})
	}
	if len(ran) != len(whole.Benches) {
		t.Fatalf("the shards ran %v; the whole run %d benches", ran, len(whole.Benches))
	}
	m, err := result.Reports(parts, "2026-01-01T00:00:00Z")
	if err != nil {
		t.Fatal(err)
	}
	if m.Status != whole.Status || m.SourcesDigest != whole.SourcesDigest || !reflect.DeepEqual(m.FlaggedBy, whole.FlaggedBy) {
		t.Fatalf("merged %s %s %v; whole %s %s %v", m.Status, m.SourcesDigest, m.FlaggedBy, whole.Status, whole.SourcesDigest, whole.FlaggedBy)
	}
	for i, b := range whole.Benches {
		if got := m.Benches[i]; got.Name != b.Name || got.Status != b.Status {
			t.Errorf("bench %d: merged %s %s; whole %s %s", i, got.Name, got.Status, b.Name, b.Status)
		}
	}
	if _, err := harness.Prepare(func() harness.Options {
		o := fakeOptions(t, "c", "c", "")
		o.Shard, o.UpdateBaselines = plan.Spec{K: 1, N: 2}, true
		return o
	}()); err == nil {
		t.Fatal("--shard with --update-baselines was accepted")
	}
}

// The sources digest names a bench's files by bench and language, not by
// where the suite was checked out or how --suite spelled it: two machines
// (shards of one run, or an A/A of one tree) whose checkouts sit in
// different places record the same digest, and a changed file changes it.
func TestSourcesDigestIsNotWhereTheSuiteIs(t *testing.T) {
	digest := func(suite string) string {
		o := fakeOptions(t, "c", "c", "count")
		o.Suite = suite
		eng := &fakeEngine{elapsed: map[string]int64{"c": 5000}, check: map[string]string{"c": "n:1"}}
		res, err := runFake(t, context.Background(), fakeEnv(fakeImages{}, eng, 2), o)
		if res == nil || res.Report == nil || res.Report.SourcesDigest == "" {
			t.Fatalf("%s: no report or digest (%v)", suite, err)
		}
		return res.Report.SourcesDigest
	}
	here := digest("testdata/suite")
	abs, _ := filepath.Abs("testdata/suite")
	moved := filepath.Join(t.TempDir(), "elsewhere", "suite")
	if err := os.CopyFS(moved, os.DirFS("testdata/suite")); err != nil {
		t.Fatal(err)
	}
	if d1, d2 := digest(abs), digest(moved); d1 != here || d2 != here {
		t.Fatalf("the same sources digest as %s, %s and %s; want one digest", here, d1, d2)
	}
	f, err := os.OpenFile(filepath.Join(moved, "benches", "micro", "count.c"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("/* changed */\n")
	f.Close()
	if digest(moved) == here {
		t.Fatal("a changed source kept the digest")
	}
}
