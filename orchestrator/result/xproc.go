package result

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/stamp"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// XprocShard is one shard's xproc report (xproc --shard=K/N) and the file
// it came from.
type XprocShard struct {
	File   string
	Report *report.XprocReport
}

// check refuses a report that is no complete shard of an xproc: its rows
// must be its part's pairs, each once, plus reference rows (the ratio rows
// of pairs another shard owns) marked as such.
func (s XprocShard) check() error {
	r, sh := s.Report, s.Report.Shard
	if r.Schema != report.XprocSchema {
		return refuse(s.File, "schema %q; want an xproc report (%s)", r.Schema, report.XprocSchema)
	}
	if err := checkField(s.File, "report", "an xproc", sh, r.Status == outcome.Interrupted); err != nil {
		return err
	}
	owned := map[string]bool{}
	for v, rows := range r.Variants {
		if _, ok := report.Variants[v]; !ok {
			return refuse(s.File, "variant %q; xproc has small and large", v)
		}
		seen := map[string]bool{}
		for _, res := range rows {
			if res == nil {
				return refuse(s.File, "a %s row is null", v)
			}
			if seen[res.Row] {
				return refuse(s.File, "row %s/%s is in the report twice", v, res.Row)
			}
			seen[res.Row] = true
			unit, err := s.rowUnit(v, res)
			if err != nil {
				return err
			}
			owned[unit] = owned[unit] || !res.Reference
		}
	}
	for _, unit := range sh.Benches {
		if !owned[unit] {
			return refuse(s.File, "shard %d's part names %s, but the report has no row of it", sh.Index, unit)
		}
	}
	return nil
}

// rowUnit is the unit of a row of variant v, refused when the row is no
// pair of the shard's part nor one of its references.
func (s XprocShard) rowUnit(v string, res *report.XprocResult) (string, error) {
	r, sh := s.Report, s.Report.Shard
	lang := report.LangOf(v, res.Row)
	unit := report.Unit(v, lang)
	switch {
	case lang == "" || !has(sh.SuiteBenches, unit):
		return "", refuse(s.File, "row %s/%s is no pair of the xproc (suite_benches %v)", v, res.Row, sh.SuiteBenches)
	case !res.Reference && !has(sh.Benches, unit):
		return "", refuse(s.File, "holds row %s/%s, which is not shard %d's part (%v) nor marked a reference", v, res.Row, sh.Index, sh.Benches)
	case res.Reference && has(sh.Benches, unit):
		return "", refuse(s.File, "marks row %s/%s a reference, but shard %d's part owns it", v, res.Row, sh.Index)
	case res.Reference && !has(report.RatioRows(r.Subject), res.Row):
		return "", refuse(s.File, "marks row %s/%s a reference; only the ratio rows (%v) are", v, res.Row, report.RatioRows(r.Subject))
	}
	return unit, nil
}

// Xproc joins the shards of one xproc into one report, written at (RFC
// 3339), or refuses them (a *Refusal). Each row appears once, from the
// shard whose part owns it, as that shard measured it — samples, medians
// and ratios against the references it measured on its own machine — and
// named by that shard; reference rows are dropped (the owner's row
// stands); each shard's run and host are kept under shard.parts.
func MergeXproc(shards []XprocShard, at string) (*report.XprocReport, error) {
	if len(shards) == 0 {
		return nil, errors.New("no shard reports given")
	}
	for _, s := range shards {
		if err := s.check(); err != nil {
			return nil, err
		}
	}
	sorted := append([]XprocShard(nil), shards...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Report.Shard.Index < sorted[j].Report.Shard.Index })
	if err := sameXproc(sorted); err != nil {
		return nil, err
	}
	first := *sorted[0].Report
	m := &first // the xproc's facts, which the shards agree on, from shard 1
	sh := *first.Shard
	m.GeneratedAt, m.RunID, m.Status, m.SourcesDigest = at, "merged-"+termtext.ShortID(sh.Digest), outcome.OK, sh.SuiteSourcesDigest
	m.Shard, m.Variants = &sh, map[string][]*report.XprocResult{}
	m.Halebench = stamp.This() // the merge's writer; each part keeps its shard's
	m.Images, m.BenchImages = map[string]report.Toolchain{}, map[string]report.BenchImage{}
	sh.Index, sh.From, sh.Benches, sh.Parts, m.Samplers = 0, "", sh.SuiteBenches, nil, nil
	for _, s := range sorted {
		r := s.Report
		m.Samplers = append(m.Samplers, r.Samplers...)
		for v, rows := range r.Variants {
			for _, res := range rows {
				if !res.Reference {
					row := *res
					row.Shard = r.Shard.Index
					m.Variants[v] = append(m.Variants[v], &row)
				}
			}
		}
		for lang, t := range r.Images {
			m.Images[lang] = t
		}
		for lang, b := range r.BenchImages {
			m.BenchImages[lang] = b
		}
		if m.SubjectBuild == nil {
			m.SubjectBuild = r.SubjectBuild
		}
		sh.Parts = append(sh.Parts, report.ShardPart{Index: r.Shard.Index, File: s.File, RunID: r.RunID, Halebench: r.Halebench, GeneratedAt: r.GeneratedAt,
			Status: r.Status, Host: r.Host, Benches: r.Shard.Benches, SourcesDigest: r.Shard.SuiteSourcesDigest})
	}
	for v, rows := range m.Variants {
		sort.SliceStable(rows, func(i, j int) bool {
			return report.RowOrder(v, rows[i].Row) < report.RowOrder(v, rows[j].Row)
		})
	}
	return m, nil
}

// sameXproc refuses shards that are not all of one xproc: each against
// the first, its settings, partition and images; then a shard given
// twice, a pair in two shards, a shard missing.
func sameXproc(shards []XprocShard) error {
	ref := shards[0]
	var files []string
	var fields []*report.Shard
	for i, s := range shards {
		if i > 0 {
			if err := agree(ref.File, s.File, "measured", xprocSettings(ref.Report), xprocSettings(s.Report)); err != nil {
				return err
			}
			if err := samePartition(ref.File, s.File, ref.Report.Shard, s.Report.Shard); err != nil {
				return err
			}
			if err := agreeShared(ref.File, s.File, "built", xprocBuilds(ref.Report), xprocBuilds(s.Report)); err != nil {
				return err
			}
		}
		files, fields = append(files, s.File), append(fields, s.Report.Shard)
	}
	return onceEach("xproc", "pair", "report", files, fields)
}

// xprocSettings are what an xproc measured and how: the subject (whose
// rows are the references), the runs of each pair, the variants.
func xprocSettings(r *report.XprocReport) []fact {
	var variants []string
	for _, u := range r.Shard.SuiteBenches {
		if v, _, ok := strings.Cut(u, "/"); ok && !has(variants, v) {
			variants = append(variants, v)
			sort.Strings(variants)
		}
	}
	return []fact{{"the subject", r.Subject}, {"--iters", fmt.Sprint(r.Iters)}, {"the variants", strings.Join(variants, ",")}}
}

// xprocBuilds are the images a shard measured. A shard builds only the
// languages it measures, so two shards are held to the images both built.
func xprocBuilds(r *report.XprocReport) []fact {
	return imageFacts("the ", r.Base, r.Images, r.BenchImages)
}

// agreeShared is agree over the facts both shards have.
func agreeShared(refFile, file, what string, wantFacts, gotFacts []fact) error {
	got := index(gotFacts)
	var want, shared []fact
	for _, f := range wantFacts {
		if g, ok := got[f.name]; ok {
			want, shared = append(want, f), append(shared, fact{f.name, g})
		}
	}
	return agree(refFile, file, what, want, shared)
}
