package xproc

import (
	"io"
	"sort"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/shard"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
)

// Three shards of one xproc hold every (variant, language) pair once, a
// language's rows together (Hale's two readers in one unit), and name the
// same partition; a shard builds only its units' languages.
func TestShardsPartitionThePairs(t *testing.T) {
	langs, err := toolchain.Parse("c,go,python,rust,node,hale")
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Suite: "../..", Langs: langs, Variants: []string{"small", "large"}, Log: io.Discard}
	var all []string
	digests := map[string]bool{}
	for k := 1; k <= 3; k++ {
		o.Shard = shard.Spec{K: k, N: 3, From: "--shard"}
		keep, sh, err := selectShard(o)
		if err != nil {
			t.Fatal(err)
		}
		if sh == nil || sh.Index != k || len(sh.SuiteBenches) != 12 || len(keep) != len(sh.Benches) || len(keep) == 0 {
			t.Fatalf("shard %d: %+v, keep %v", k, sh, keep)
		}
		// 12 units, 14 rows: Hale's unit weighs its two readers.
		if sh.Loads[0]+sh.Loads[1]+sh.Loads[2] != 14 {
			t.Errorf("loads %v, want 14 rows in all", sh.Loads)
		}
		for _, l := range langsOf(o, keep) {
			if !keep[Unit("small", l.Name)] && !keep[Unit("large", l.Name)] {
				t.Errorf("shard %d builds %s, which it does not measure", k, l.Name)
			}
		}
		all = append(all, sh.Benches...)
		digests[sh.Digest+" "+sh.SuiteSourcesDigest] = true
	}
	sort.Strings(all)
	if len(all) != 12 || strings.Join(all, ",") != strings.Join(uniq(all), ",") {
		t.Errorf("the shards hold %v", all)
	}
	if len(digests) != 1 {
		t.Errorf("the shards name %d partitions", len(digests))
	}
}

func uniq(xs []string) []string {
	var out []string
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}
