package result

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// xprocLangs are the languages of the xproc the tests shard: Hale's unit
// has two rows (its per-record and its Drain reader).
// (in the toolchain table's order, an unsharded xproc's).
var xprocLangs = []string{"hale", "go", "c", "rust"}

// ratios fills the rows' ratios as xproc does, from the judge's (the
// merge keeps each shard's, computing none).
func ratios(rs []*report.XprocResult, subject string) {
	rows := make([]judge.XprocRow, len(rs))
	for i, r := range rs {
		rows[i] = judge.XprocRow{Row: r.Row, OK: r.Status == outcome.OK, Median: r.ElapsedNsMedian}
	}
	vsSeed, vsSubject := judge.XprocRatios(rows, subject)
	for i, r := range rs {
		r.RatioVsHale, r.RatioVsSubject = vsSeed[i], vsSubject[i]
	}
}

// xprocRow is a row's figures on a machine of the given speed factor: the
// same on every machine up to the factor, so that a ratio measured within
// one machine is the same on all.
func xprocRow(variant, row string, factor int64, reference bool) *report.XprocResult {
	ns := int64(1000 + len(variant)*11)
	for _, c := range row {
		ns += int64(c) * 7
	}
	ns *= factor
	return &report.XprocResult{Row: row, Title: row, Status: outcome.OK, Comparable: true, ElapsedNsMedian: ns,
		ElapsedNsSamples: []int64{ns, ns + 1, ns - 1}, Check: "n:" + variant, Reference: reference}
}

// xprocShards are the n shards of one xproc of xprocLangs in both
// variants, subject Hale: each shard's part as plan.Split makes it, and
// Hale's per-record row as a reference wherever a shard holds another
// pair of a variant but not Hale's (both variants unless named); shard k's machine is k times slower.
func xprocShards(t *testing.T, n int, variants ...string) []XprocShard {
	t.Helper()
	if len(variants) == 0 {
		variants = []string{"small", "large"}
	}
	costs := plan.Costs{Of: map[string]int64{}, By: "rows (no recorded cost)"}
	for _, v := range variants {
		for _, l := range xprocLangs {
			costs.Of[report.Unit(v, l)] = int64(len(langRows(v, l)))
		}
	}
	part := plan.Split(n, costs)
	dir := t.TempDir()
	var out []XprocShard
	for k := 1; k <= n; k++ {
		r := &report.XprocReport{Schema: report.XprocSchema, RunID: fmt.Sprintf("xproc-%d", k), GeneratedAt: "2026-01-02T03:04:05Z",
			Status: outcome.OK, Iters: 3, Subject: "hale", Host: report.Host{HostInfo: report.HostInfo{Hostname: fmt.Sprintf("runner-%d", k)}},
			Base: report.Base{ID: "sha256:base"}, Images: map[string]report.Toolchain{}, BenchImages: map[string]report.BenchImage{},
			Variants: map[string][]*report.XprocResult{},
			Shard: &report.Shard{Index: k, Total: n, From: "--shard", SuiteBenches: part.Benches, Benches: part.Part(k),
				BalancedBy: part.BalancedBy, Loads: part.Loads, Digest: part.Digest, SuiteSourcesDigest: "sha256:5555555555555555555555555555555555555555555555555555555555555555"}}
		for _, v := range variants {
			holdsOther, holdsHale := false, part.Has(k, report.Unit(v, "hale"))
			for _, l := range xprocLangs {
				holdsOther = holdsOther || (l != "hale" && part.Has(k, report.Unit(v, l)))
			}
			for _, l := range xprocLangs {
				for _, row := range langRows(v, l) {
					owned := part.Has(k, report.Unit(v, l))
					ref := !owned && row == "hale" && holdsOther && !holdsHale
					if owned || ref {
						r.Variants[v] = append(r.Variants[v], xprocRow(v, row, int64(k), ref))
						r.Images[l] = report.Toolchain{Status: "available", Digest: "sha256:tc-" + l}
						r.BenchImages[l] = report.BenchImage{Digest: "sha256:bench-" + l}
					}
				}
			}
			ratios(r.Variants[v], r.Subject)
		}
		out = append(out, writeXproc(t, dir, fmt.Sprintf("xproc-%d.json", k), r))
	}
	return out
}

func langRows(variant, lang string) []string {
	l, _ := suite.ByName(lang)
	var rows []string
	for _, r := range l.XProcRows(variant) {
		rows = append(rows, r.Key)
	}
	return rows
}

func writeXproc(t *testing.T, dir, name string, r *report.XprocReport) XprocShard {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := report.WriteFile(path, r); err != nil {
		t.Fatal(err)
	}
	d, err := readShard(path)
	if err != nil {
		t.Fatal(err)
	}
	return XprocShard{File: path, Report: d.Xproc}
}

// The merge of three xproc shards has the rows of an unsharded xproc,
// each once in its table order with its ratios as an unsharded xproc on
// one machine computes them (each shard measured its ratios' reference on
// its own machine, slower or not), its samples as its shard measured
// them and named by that shard; Hale's row is its owner's; every shard's
// host is kept.
func TestMergeXprocEqualsUnsharded(t *testing.T) {
	shards := xprocShards(t, 3)
	for k, s := range shards {
		s.Report.Samplers = []report.Sampler{{Lang: "c", CPUs: "1", ContainerID: fmt.Sprintf("reader-%d", k+1)}}
	}
	m, err := MergeXproc([]XprocShard{shards[2], shards[0], shards[1]}, "2026-01-02T04:00:00Z")
	if err != nil {
		t.Fatal(err)
	}
	if m.Schema != report.XprocSchema || !m.Merged() || len(m.Shard.Parts) != 3 || len(m.Shard.Benches) != 8 || m.Status != outcome.OK {
		t.Fatalf("merged: %+v", m.Shard)
	}
	if m.SourcesDigest == "" || m.SourcesDigest != shards[0].Report.Shard.SuiteSourcesDigest {
		t.Errorf("merged sources digest %q; want the whole xproc's, %q", m.SourcesDigest, shards[0].Report.Shard.SuiteSourcesDigest)
	}
	for _, v := range []string{"small", "large"} {
		var unsharded []*report.XprocResult
		for _, l := range xprocLangs {
			for _, row := range langRows(v, l) {
				unsharded = append(unsharded, xprocRow(v, row, 1, false))
			}
		}
		ratios(unsharded, "hale")
		got := m.Variants[v]
		if len(got) != len(unsharded) {
			t.Fatalf("%s: %d rows, want %d", v, len(got), len(unsharded))
		}
		for i, res := range got {
			want := unsharded[i]
			k := int64(res.Shard)
			owner := ownerOf(t, shards, report.Unit(v, report.LangOf(v, res.Row)))
			if res.Row != want.Row || res.Reference || res.Shard != owner || *res.RatioVsHale != *want.RatioVsHale ||
				res.ElapsedNsMedian != k*want.ElapsedNsMedian || !reflect.DeepEqual(res.ElapsedNsSamples, xprocRow(v, res.Row, k, false).ElapsedNsSamples) {
				t.Errorf("%s row %d: %s of shard %d (owner %d), ratio %v, median %d; want %s, ratio %v", v, i, res.Row, res.Shard, owner, *res.RatioVsHale, res.ElapsedNsMedian, want.Row, *want.RatioVsHale)
			}
		}
	}
	for k, p := range m.Shard.Parts {
		if p.Index != k+1 || p.Host.Hostname != fmt.Sprintf("runner-%d", k+1) || p.File != shards[k].File {
			t.Errorf("part %d: %+v", k, p)
		}
	}
	if len(m.Samplers) != 3 || m.Samplers[0].ContainerID != "reader-1" || m.Samplers[2].ContainerID != "reader-3" {
		t.Errorf("sampler containers %+v; want each shard's, in shard order", m.Samplers)
	}
	if len(m.Images) != 4 || len(m.BenchImages) != 4 {
		t.Errorf("images %v, bench images %v", m.Images, m.BenchImages)
	}
	var tables strings.Builder
	report.Tables(&tables, m)
	if !strings.Contains(tables.String(), "merged from 3 shards") || !strings.Contains(tables.String(), "shard 2/3: host runner-2") || strings.Contains(tables.String(), "(reference)") {
		t.Errorf("tables:\n%s", tables.String())
	}
}

// A shard whose machine measured some pair of a variant and not Hale's
// measured Hale's row as its reference (else its ratios would be against
// another machine's Hale).
func TestXprocShardsHoldReferences(t *testing.T) {
	refs := 0
	for _, s := range xprocShards(t, 3) {
		for _, rows := range s.Report.Variants {
			for _, r := range rows {
				if r.Reference {
					refs++
				}
				if r.RatioVsHale == nil {
					t.Errorf("%s: row %s has no ratio against its own machine's Hale", s.File, r.Row)
				}
			}
		}
	}
	if refs == 0 {
		t.Error("no shard measured a reference: the test's partition shows nothing")
	}
}

func ownerOf(t *testing.T, shards []XprocShard, unit string) int {
	for _, s := range shards {
		if has(s.Report.Shard.Benches, unit) {
			return s.Report.Shard.Index
		}
	}
	t.Fatalf("no shard owns %s", unit)
	return 0
}

// Shards of another xproc (subject, runs, variants, sources, partition,
// images, N), twice, missing, or a file that is no xproc shard (no shard
// field, interrupted, a run report or an ab result, a row outside its
// part, a reference that is no ratio row, a pair without its row) are
// refused, naming the file.
func TestMergeXprocRefuses(t *testing.T) {
	shards := xprocShards(t, 3)
	dir := t.TempDir()
	edit := func(name string, k int, change func(r *report.XprocReport)) XprocShard {
		r := *shards[k].Report
		sh := *r.Shard
		r.Shard = &sh
		r.BenchImages = map[string]report.BenchImage{}
		for l, b := range shards[k].Report.BenchImages {
			r.BenchImages[l] = b
		}
		change(&r)
		path := filepath.Join(dir, name)
		if err := report.WriteFile(path, &r); err != nil {
			t.Fatal(err)
		}
		return XprocShard{File: path, Report: &r}
	}
	withHale := 0
	for k, s := range shards {
		if _, ok := s.Report.BenchImages["hale"]; ok && k > 0 {
			withHale = k
		}
	}
	if _, ok := shards[0].Report.BenchImages["hale"]; !ok || withHale == 0 {
		t.Fatal("no two shards built Hale: the image case shows nothing")
	}
	others := func(k int, s XprocShard) []XprocShard {
		out := append([]XprocShard(nil), shards...)
		out[k] = s
		return out
	}
	for _, c := range []struct {
		name   string
		shards []XprocShard
		want   string
	}{
		{"twice", []XprocShard{shards[0], shards[0], shards[1], shards[2]}, "given twice"},
		{"missing", []XprocShard{shards[0], shards[1]}, "shard(s) 3 of them are missing"},
		{"subject", others(1, edit("subject.json", 1, func(r *report.XprocReport) { r.Subject = "c" })), "the subject is c here, hale there"},
		{"iters", others(1, edit("iters.json", 1, func(r *report.XprocReport) { r.Iters = 5 })), "--iters is 5 here, 3 there"},
		{"variants", []XprocShard{shards[0], xprocShards(t, 3, "small")[1], shards[2]}, "the variants is small here, large,small there"},
		{"sources", others(1, edit("sources.json", 1, func(r *report.XprocReport) {
			r.Shard.SuiteSourcesDigest = "sha256:6666666666666666666666666666666666666666666666666666666666666666"
		})), "different bench sources"},
		{"partition", others(1, edit("partition.json", 1, func(r *report.XprocReport) {
			r.Shard.Digest = "sha256:6666666666666666666666666666666666666666666666666666666666666666"
		})), "a different partition"},
		{"short partition digest", others(1, edit("short.json", 1, func(r *report.XprocReport) { r.Shard.Digest = "sha256:abc" })), `partition_digest "sha256:abc" is not a sha256 digest`},
		{"image", others(withHale, edit("image.json", withHale, func(r *report.XprocReport) {
			r.BenchImages["hale"] = report.BenchImage{Digest: "sha256:other"}
		})), "the hale bench image is sha256:other here"},
		{"N", []XprocShard{shards[0], xprocShards(t, 2)[1]}, "N disagrees"},
	} {
		_, err := MergeXproc(c.shards, "now")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want a refusal saying %q", c.name, err, c.want)
		}
	}
	notShard := edit("unsharded.json", 0, func(r *report.XprocReport) { r.Shard = nil })
	interrupted := edit("interrupted.json", 0, func(r *report.XprocReport) { r.Status = outcome.Interrupted })
	foreign := edit("foreign.json", 0, func(r *report.XprocReport) {
		r.Variants = map[string][]*report.XprocResult{"small": append([]*report.XprocResult{xprocRow("small", "python", 1, false)}, r.Variants["small"]...)}
	})
	badRef := edit("badref.json", 0, func(r *report.XprocReport) {
		r.Variants = map[string][]*report.XprocResult{"small": append([]*report.XprocResult{xprocRow("small", "hale_drain", 1, true)}, r.Variants["small"]...)}
	})
	lost := edit("lost.json", 0, func(r *report.XprocReport) { r.Variants = map[string][]*report.XprocResult{} })
	for path, want := range map[string]string{
		notShard.File: "not a shard", interrupted.File: "was interrupted", foreign.File: "no pair of the xproc",
		badRef.File: "only the ratio rows", lost.File: "but the report has no row of it",
	} {
		if _, err := readShard(path); err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want a refusal naming it and saying %q", path, err, want)
		}
	}
}
