package xproc

import (
	"fmt"

	"github.com/hale-lang/halebench/orchestrator/collect"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// Unit names what a shard of xproc holds: one language's pair (all its
// rows: Hale's two readers stay in one unit) in one variant, "small/go".
func Unit(variant, lang string) string { return report.Unit(variant, lang) }

// selection is what a shard of xproc measures: the units of its part,
// and, as references, the rows its ratios are taken against
// (report.RatioRows) in every variant where it holds another pair but
// another shard's part owns those rows. A ratio then compares two pairs
// measured on one machine. A nil selection measures everything.
type selection struct {
	keep map[string]bool // units of this shard's part
	refs map[string]bool // Unit(variant, row) of its reference rows
}

// measures says whether the shard measures row of variant, and whether as
// a reference only.
func (s *selection) measures(variant string, row Row) (measure, reference bool) {
	if s == nil || s.keep[Unit(variant, row.Lang.Name)] {
		return true, false
	}
	ref := row.Name == row.Lang.Name && s.refs[Unit(variant, row.Name)]
	return ref, ref
}

// selectShard is, on a sharded xproc, what this shard measures and the
// partition for the report (nil, nil: unsharded). It is run's partition
// (plan.Divide) over the units, balanced by their rows (no report records
// what a pair costs before it ran); the ratio rows' units are members like
// any other, so one shard's part owns each, and the others measure them
// as references.
func selectShard(o Options) (*selection, *report.Shard, error) {
	if o.Shard.N == 0 {
		return nil, nil, nil
	}
	w := plan.Work{Cells: map[string]int{}}
	for _, v := range o.Variants {
		for _, l := range o.Langs {
			w.Cells[Unit(v, l.Name)] = len(Rows(v, []suite.Language{l}))
		}
	}
	share, err := plan.Divide(o.Shard, plan.ByCells(w), sources(o))
	if err != nil {
		return nil, nil, err
	}
	sel := &selection{keep: map[string]bool{}, refs: map[string]bool{}}
	for _, u := range share.Units() {
		sel.keep[u] = true
	}
	sel.addRefs(o)
	fmt.Fprintf(o.Log, "xproc: %s; %d reference row(s) for its ratios\n", share.Said("pairs"), len(sel.refs))
	return sel, collect.Shard(share), nil
}

// addRefs adds, in each variant, every ratio row of a language asked whose
// unit is not the shard's own, when the shard holds another pair there.
func (s *selection) addRefs(o Options) {
	asked := map[string]bool{}
	for _, l := range o.Langs {
		asked[l.Name] = true
	}
	for _, v := range o.Variants {
		for _, r := range report.RatioRows(o.Subject) {
			if !asked[r] || s.keep[Unit(v, r)] {
				continue
			}
			for _, l := range o.Langs {
				if l.Name != r && s.keep[Unit(v, l.Name)] {
					s.refs[Unit(v, r)] = true
					break
				}
			}
		}
	}
}

// sources are the xproc programs of every language asked, named by
// language and unit (not by path), so the shards of one xproc digest alike.
func sources(o Options) []plan.Source {
	var srcs []plan.Source
	for _, l := range o.Langs {
		for _, s := range Sources(o.Suite, l) {
			srcs = append(srcs, plan.Source{Name: l.Name + " " + s.Unit, Path: s.Path})
		}
	}
	return srcs
}

// langsOf are the languages the shard measures (its units' and its
// references'), in o.Langs' order.
func langsOf(o Options, sel *selection) []suite.Language {
	var out []suite.Language
	for _, l := range o.Langs {
		for _, v := range o.Variants {
			if sel.keep[Unit(v, l.Name)] || sel.refs[Unit(v, l.Name)] {
				out = append(out, l)
				break
			}
		}
	}
	return out
}
