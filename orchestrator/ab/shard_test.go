package ab

import (
	"sort"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/plan"
)

// Three shards of one ab (the repository's suite on both sides) hold every
// bench once, each bench whole (Names is by bench: its languages and both
// sides go together), and name the same partition and sources.
func TestShardsPartitionTheBenches(t *testing.T) {
	o := Options{A: SideSpec{Suite: "../..", What: "A"}, B: SideSpec{Suite: "../..", What: "B"}, Subject: "c", Langs: "c,go",
		Settings: Settings{Threshold: 0.02}, Timeout: 1}
	whole, err := Prepare(o)
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	digests, sources := map[string]bool{}, map[string]bool{}
	for k := 1; k <= 3; k++ {
		o.Shard = plan.Spec{K: k, N: 3, From: "--shard"}
		p, err := Prepare(o)
		if err != nil {
			t.Fatal(err)
		}
		sh := p.Partition
		if sh == nil || sh.Index != k || sh.Total != 3 || strings.Join(sh.Benches, ",") != strings.Join(p.Names, ",") || len(p.Names) == 0 {
			t.Fatalf("shard %d: partition %+v, names %v", k, sh, p.Names)
		}
		if strings.Join(sh.SuiteBenches, ",") != strings.Join(whole.Names, ",") || !strings.HasPrefix(sh.BalancedBy, "cells") {
			t.Errorf("shard %d: suite benches %d, balanced by %q", k, len(sh.SuiteBenches), sh.BalancedBy)
		}
		if p.SourcesDigest == "" || p.SourcesDigest == whole.SourcesDigest {
			t.Errorf("shard %d: sources digest %q, the whole ab's %q: a part's sources are its own", k, p.SourcesDigest, whole.SourcesDigest)
		}
		all = append(all, p.Names...)
		digests[sh.Digest], sources[sh.SuiteSourcesDigest] = true, true
	}
	sort.Strings(all)
	if strings.Join(all, ",") != strings.Join(whole.Names, ",") {
		t.Errorf("the shards hold %d benches (%v), the whole ab %d", len(all), all, len(whole.Names))
	}
	if len(digests) != 1 || len(sources) != 1 {
		t.Errorf("the shards name %d partitions and %d sources", len(digests), len(sources))
	}
	// What the merge records as its sources digest (the shards' suite
	// sources) is what the unsharded ab records.
	if !strings.HasPrefix(whole.SourcesDigest, "sha256:") || !sources[whole.SourcesDigest] {
		t.Errorf("the whole ab's sources digest %q; the shards name %v", whole.SourcesDigest, sources)
	}
	o.Shard, o.ShardCosts = plan.Spec{}, "x.json"
	if _, err := Prepare(o); err == nil || !strings.Contains(err.Error(), "give --shard=K/N too") {
		t.Errorf("--shard-costs alone: %v", err)
	}
}
