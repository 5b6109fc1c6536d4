package xproc_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine/docker"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/shard"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
	"github.com/hale-lang/halebench/orchestrator/xproc"
	"github.com/hale-lang/halebench/orchestrator/xprocreport"
)

// One shard of an xproc of C and Go on the engine: it measures its own
// pairs only, builds only their languages, names the partition, and its
// report carries a run report's evidence (host and privilege, each image's
// digest and provenance).
func TestShardOnEngine(t *testing.T) {
	eng := enginetest.Connect(t)
	langs, err := toolchain.Parse("c,go")
	if err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	o := xproc.Options{Suite: "../..", Langs: langs, Subject: "c", Variants: []string{"small"}, Iters: 1, Timeout: 2 * time.Minute,
		ResultsDir: t.TempDir(), Log: &log, Shard: shard.Spec{K: 2, N: 2, From: "--shard"}}
	rep, path, err := xproc.RunOnEngine(context.Background(), docker.Bind(eng), o)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	sh := rep.Shard
	if path == "" || rep.Schema != xprocreport.Schema || sh == nil || sh.Index != 2 || sh.Total != 2 || len(sh.Benches) != 1 || len(sh.SuiteBenches) != 2 {
		t.Fatalf("report %s: schema %q, shard %+v", path, rep.Schema, sh)
	}
	rows := rep.Variants["small"]
	if len(rows) != 1 || xproc.Unit("small", rows[0].Row) != sh.Benches[0] || rows[0].Status != "ok" {
		t.Fatalf("shard %v measured %+v\n%s", sh.Benches, rows, log.String())
	}
	other := "c"
	if rows[0].Row == "c" {
		other = "go"
	}
	if _, built := rep.BenchImages[other]; built {
		t.Errorf("the shard built %s's image, which it does not measure", other)
	}
	bi, tc := rep.BenchImages[rows[0].Row], rep.Images[rows[0].Row]
	if rep.Host.LogicalCPUs < 1 || rep.Host.Privilege.Mode == "" || bi.ID == "" || bi.Provenance == nil || tc.Provenance == nil || rep.Base.ID == "" {
		t.Errorf("evidence: host %+v, bench image %+v, toolchain %+v, base %+v", rep.Host, bi, tc, rep.Base)
	}
}
