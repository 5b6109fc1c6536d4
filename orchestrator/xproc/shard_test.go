package xproc

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/result"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// Three shards of one xproc hold every (variant, language) pair once, a
// language's rows together (Hale's two readers in one unit), and name the
// same partition; a shard builds only its units' languages.
func TestShardsPartitionThePairs(t *testing.T) {
	langs, err := suite.Parse("c,go,python,rust,node,hale")
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Suite: "../..", Langs: langs, Variants: []string{"small", "large"}, Log: io.Discard}
	var all []string
	digests := map[string]bool{}
	for k := 1; k <= 3; k++ {
		o.Shard = plan.Spec{K: k, N: 3, From: "--shard"}
		sel, sh, err := selectShard(o)
		if err != nil {
			t.Fatal(err)
		}
		keep := sel.keep
		if sh == nil || sh.Index != k || len(sh.SuiteBenches) != 12 || len(keep) != len(sh.Benches) || len(keep) == 0 {
			t.Fatalf("shard %d: %+v, keep %v", k, sh, keep)
		}
		// 12 units, 14 rows: Hale's unit weighs its two readers.
		if sh.Loads[0]+sh.Loads[1]+sh.Loads[2] != 14 {
			t.Errorf("loads %v, want 14 rows in all", sh.Loads)
		}
		for _, l := range langsOf(o, sel) {
			if !keep[Unit("small", l.Name)] && !keep[Unit("large", l.Name)] && !sel.refs[Unit("small", l.Name)] && !sel.refs[Unit("large", l.Name)] {
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
	// The unsharded report's sources digest is the one every shard names
	// as its suite's, which a merge records.
	o.Shard = plan.Spec{}
	whole, err := newReport(o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(whole.SourcesDigest, "sha256:") || !strings.HasSuffix(firstKey(digests), " "+whole.SourcesDigest) {
		t.Errorf("the unsharded sources digest %q; the shards name %v", whole.SourcesDigest, digests)
	}
}

func firstKey(m map[string]bool) string {
	for k := range m {
		return k
	}
	return ""
}

// Every shard that holds a pair of a variant but not the ratio rows'
// unit measures those rows as references — Hale's per-record reader (not
// its Drain reader), and the subject's when another language is the
// subject — and no other shard does; the owner measures them as its own.
func TestShardsMeasureTheRatioRowsAsReferences(t *testing.T) {
	langs, err := suite.Parse("c,go,python,rust,node,hale")
	if err != nil {
		t.Fatal(err)
	}
	for _, subject := range []string{"hale", "c"} {
		o := Options{Suite: "../..", Langs: langs, Subject: subject, Variants: []string{"small", "large"}, Log: io.Discard}
		for k := 1; k <= 3; k++ {
			o.Shard = plan.Spec{K: k, N: 3, From: "--shard"}
			sel, _, err := selectShard(o)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range o.Variants {
				holds := map[string]bool{}
				for _, l := range langs {
					holds[l.Name] = sel.keep[Unit(v, l.Name)]
				}
				for _, row := range Rows(v, langs) {
					measure, ref := sel.measures(v, row)
					own := holds[row.Lang.Name]
					isRatio := row.Name == "hale" || row.Name == subject
					others := false
					for name, h := range holds {
						others = others || (h && name != row.Lang.Name)
					}
					wantRef := !own && isRatio && others
					if measure != (own || wantRef) || ref != wantRef {
						t.Errorf("subject %s, shard %d, %s/%s: measure %v reference %v; holds %v", subject, k, v, row.Name, measure, ref, holds)
					}
				}
			}
		}
	}
	var unsharded *selection
	if m, ref := unsharded.measures("small", Rows("small", langs)[0]); !m || ref {
		t.Error("an unsharded xproc measures every row as its own")
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

// fakeRow is a row's figures on a machine factor times slower than the
// first (pure logic: no pair runs).
func fakeRow(variant string, row Row, factor int64, reference bool) *Result {
	ns := int64(5000 + 13*len(variant))
	for _, c := range row.Name {
		ns += 31 * int64(c)
	}
	ns *= factor
	return &Result{Row: row.Name, Title: row.Title, Status: outcome.OK, ElapsedNsMedian: ns, ElapsedNsSamples: []int64{ns}, Reference: reference}
}

// Three shards, each measuring what xproc's selection gives it (its part
// and its references) on a machine k times slower, merge into the rows
// of an unsharded xproc on one machine: the same rows in the same order
// with the same ratios against Hale and against the subject — every ratio
// had its reference on its own shard's machine.
func TestShardsMergeToUnsharded(t *testing.T) {
	langs, err := suite.Parse("c,go,python,rust,node,hale")
	if err != nil {
		t.Fatal(err)
	}
	for _, subject := range []string{"hale", "c"} {
		o := Options{Suite: "../..", Langs: langs, Subject: subject, Variants: []string{"small", "large"}, Iters: 1, Log: io.Discard}
		var shards []result.XprocShard
		for k := 1; k <= 3; k++ {
			o.Shard = plan.Spec{K: k, N: 3, From: "--shard"}
			sel, sh, err := selectShard(o)
			if err != nil {
				t.Fatal(err)
			}
			r := &Report{Schema: report.XprocSchema, Status: outcome.OK, Iters: 1, Subject: subject, Shard: sh, Variants: map[string][]*Result{}}
			for _, v := range o.Variants {
				for _, row := range Rows(v, langs) {
					if measure, ref := sel.measures(v, row); measure {
						r.Variants[v] = append(r.Variants[v], fakeRow(v, row, int64(k), ref))
					}
				}
				Ratios(r.Variants[v], subject)
			}
			shards = append(shards, result.XprocShard{File: fmt.Sprintf("shard%d.json", k), Report: r})
		}
		m, err := result.MergeXproc(shards, "now")
		if err != nil {
			t.Fatalf("subject %s: %v", subject, err)
		}
		for _, v := range o.Variants {
			var want []*Result
			for _, row := range Rows(v, langs) {
				want = append(want, fakeRow(v, row, 1, false))
			}
			Ratios(want, subject)
			got := m.Variants[v]
			if len(got) != len(want) {
				t.Fatalf("subject %s, %s: %d rows, want %d", subject, v, len(got), len(want))
			}
			for i, g := range got {
				w := want[i]
				if g.Row != w.Row || g.Shard == 0 || g.Reference || ratio(g.RatioVsHale) != ratio(w.RatioVsHale) || ratio(g.RatioVsSubject) != ratio(w.RatioVsSubject) {
					t.Errorf("subject %s, %s row %d: %s of shard %d, ratios %s %s; want %s, %s %s", subject, v, i,
						g.Row, g.Shard, ratio(g.RatioVsHale), ratio(g.RatioVsSubject), w.Row, ratio(w.RatioVsHale), ratio(w.RatioVsSubject))
				}
			}
		}
	}
}

func ratio(p *float64) string {
	if p == nil {
		return "none"
	}
	return fmt.Sprintf("%.4f", *p)
}

// What xproc's flags settle into: both variants unless one is named, the
// shard (K/N from the CI said on the log), no --shard-costs, and the
// options checked.
func TestSettle(t *testing.T) {
	var log strings.Builder
	env := map[string]string{"CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "2"}
	o := Options{Iters: 3, Timeout: 1, Log: &log}
	if err := o.Settle("", plan.Asked{Spec: "auto"}, func(k string) string { return env[k] }); err != nil || len(o.Variants) != 2 || o.Shard.String() != "1/2" || !strings.Contains(log.String(), "shard 1/2 from") {
		t.Errorf("%+v %v, said %q", o, err, log.String())
	}
	for _, c := range []struct {
		variant string
		shard   plan.Asked
		want    string
	}{
		{"huge", plan.Asked{}, "--variant=huge: want small or large"},
		{"small", plan.Asked{Spec: "1/2", Costs: "r.json"}, "--shard-costs=r.json: xproc balances its pairs by their rows"},
		{"small", plan.Asked{Spec: "3/2"}, "shard 3 of 2 does not exist"},
	} {
		o := Options{Iters: 3, Timeout: 1, Log: io.Discard}
		if err := o.Settle(c.variant, c.shard, func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %+v: %v, want %q", c.variant, c.shard, err, c.want)
		}
	}
}
