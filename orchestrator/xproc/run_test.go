package xproc_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/suite"
	"github.com/hale-lang/halebench/orchestrator/xproc"
)

// One shard of an xproc of C and Go on the engine, subject C: shard 2/2
// owns Go's pair (C's, at equal rows, is shard 1's by name) and measures
// C's row beside it as its reference, marked so, so that Go's ratio
// against C compares two pairs of this machine; it names the partition,
// and its report carries a run report's evidence (host and privilege,
// each image's digest and provenance).
func TestShardOnEngine(t *testing.T) {
	eng := enginetest.Connect(t)
	langs, err := suite.Parse("c,go")
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	o := xproc.Options{Suite: "../..", Langs: langs, Subject: "c", Variants: []string{"small"}, Iters: 1, Timeout: 2 * time.Minute,
		ResultsDir: t.TempDir(), Log: &log, Shard: plan.Spec{K: 2, N: 2, From: "--shard"}}
	rep, path, err := xproc.RunOnEngine(context.Background(), eng, o)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	sh := rep.Shard
	if path == "" || rep.Schema != report.XprocSchema || sh == nil || sh.Index != 2 || sh.Total != 2 || len(sh.Benches) != 1 || sh.Benches[0] != "small/go" || len(sh.SuiteBenches) != 2 {
		t.Fatalf("report %s: schema %q, shard %+v", path, rep.Schema, sh)
	}
	rows := rep.Variants["small"]
	if len(rows) != 2 || rows[0].Row != "go" || rows[0].Reference || rows[0].Status != "ok" || rows[1].Row != "c" || !rows[1].Reference || rows[1].Status != "ok" {
		t.Fatalf("shard %v measured %+v\n%s", sh.Benches, rows, log.String())
	}
	if rows[0].RatioVsSubject == nil || *rows[0].RatioVsSubject <= 0 {
		t.Errorf("go's ratio against its shard's C: %v", rows[0].RatioVsSubject)
	}
	for _, l := range []string{"c", "go"} {
		bi, tc := rep.BenchImages[l], rep.Images[l]
		if bi.ID == "" || bi.Provenance == nil || tc.Provenance == nil {
			t.Errorf("%s: bench image %+v, toolchain %+v", l, bi, tc)
		}
	}
	// Each language's pair ran in its own two sampler containers, kept for
	// the pair's runs, and the report names them as a run report does.
	byLang := map[string]int{}
	for _, s := range rep.Samplers {
		if s.ContainerID == "" || s.CPUs == "" {
			t.Errorf("sampler container %+v", s)
		}
		byLang[s.Lang]++
	}
	if len(rep.Samplers) != 4 || byLang["c"] != 2 || byLang["go"] != 2 {
		t.Errorf("sampler containers %+v; want a reader and a producer for each of c and go", rep.Samplers)
	}
	if rep.Host.LogicalCPUs < 1 || rep.Host.Privilege.Mode == "" || rep.Base.ID == "" {
		t.Errorf("evidence: host %+v, base %+v", rep.Host, rep.Base)
	}
}
