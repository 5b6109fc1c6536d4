package result

import (
	"errors"
	"sort"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/stamp"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Reports joins the shards of one run into one report, written at (RFC
// 3339), or refuses them (a *Refusal). Each bench's row is its shard's, as
// it is; the run's status is the worst of the shards'.
func Reports(shards []Shard, at string) (*report.Report, error) {
	if len(shards) == 0 {
		return nil, errors.New("no shard reports given")
	}
	for _, s := range shards {
		if err := s.check(); err != nil {
			return nil, err
		}
	}
	sorted := append([]Shard(nil), shards...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Report.Shard.Index < sorted[j].Report.Shard.Index })
	if err := sameRun(sorted); err != nil {
		return nil, err
	}
	first := *sorted[0].Report
	m := &first // the run's facts, which the shards agree on, from shard 1
	sh := *first.Shard
	m.GeneratedAt, m.RunID, m.SourcesDigest = at, "merged-"+termtext.ShortID(sh.Digest), sh.SuiteSourcesDigest
	m.Shard, m.Benches, m.Warnings, m.Samplers, m.FlaggedBy = &sh, nil, nil, nil, nil
	m.Halebench = stamp.This() // the merge's writer; each part keeps its shard's
	sh.Index, sh.From, sh.Benches, sh.Parts = 0, "", sh.SuiteBenches, nil
	m.Count = mergedCount(sorted)
	var machines []string
	for _, s := range sorted {
		r := s.Report
		m.Status = worse(m.Status, r.Status)
		m.Benches = append(m.Benches, r.Benches...)
		m.Samplers = append(m.Samplers, r.Samplers...)
		m.Warnings = appendNew(m.Warnings, r.Warnings...)
		m.FlaggedBy = appendNew(m.FlaggedBy, r.FlaggedBy...)
		machines = appendNew(machines, r.Gate.Machine)
		sh.Parts = append(sh.Parts, partOf(s))
	}
	if len(machines) > 1 { // each shard's time verdicts stay its machine's
		m.Gate.Machine = "per shard: see shard.parts"
	}
	inGridOrder(m)
	return m, nil
}

// partOf is a shard's own evidence in the merged report.
func partOf(s Shard) report.ShardPart {
	r := s.Report
	p := report.ShardPart{Index: r.Shard.Index, File: s.File, RunID: r.RunID, Halebench: r.Halebench, GeneratedAt: r.GeneratedAt,
		Status: r.Status, Host: r.Host, GateMachine: r.Gate.Machine, Benches: r.Shard.Benches, SourcesDigest: r.SourcesDigest}
	if r.Count != nil {
		p.CountCostSeconds = r.Count.CostSeconds
	}
	return p
}

// mergedCount is the run's count lane: the shards' settings (equal), the
// cells and cost summed, what each left over budget.
func mergedCount(shards []Shard) *report.Count {
	if shards[0].Report.Count == nil {
		return nil
	}
	c := *shards[0].Report.Count
	c.CostSeconds, c.Cells, c.OverBudget = 0, 0, nil
	for _, s := range shards {
		sc := s.Report.Count
		c.CostSeconds += sc.CostSeconds
		c.Cells += sc.Cells
		c.OverBudget = append(c.OverBudget, sc.OverBudget...)
		if c.Valgrind == "" {
			c.Valgrind = sc.Valgrind // a shard that counted nothing read none
		}
	}
	return &c
}

// worse is the run status of two shards': a failure over a regression
// over an inconclusive run over a fine one.
func worse(a, b outcome.Status) outcome.Status {
	rank := func(s outcome.Status) int {
		switch s.Severity() {
		case outcome.Fails:
			return 3
		case outcome.Regresses:
			return 2
		case outcome.Attention:
			return 1
		}
		return 0
	}
	if rank(b) > rank(a) {
		return b
	}
	return a
}

// appendNew appends what list lacks, in order, once.
func appendNew(list []string, more ...string) []string {
	for _, s := range more {
		dup := false
		for _, have := range list {
			dup = dup || have == s
		}
		if !dup {
			list = append(list, s)
		}
	}
	return list
}

// inGridOrder puts the benches in the order an unsharded run has them:
// the catalogue's categories, then the lost benches.
func inGridOrder(r *report.Report) {
	pos := map[string]int{}
	for _, c := range r.Categories {
		for _, n := range c.Benches {
			if _, ok := pos[n]; !ok {
				pos[n] = len(pos)
			}
		}
	}
	rank := func(b *report.Bench) (int, string) {
		if gone(b) {
			return len(pos) + 1, b.Name
		}
		if p, ok := pos[b.Name]; ok {
			return p, ""
		}
		return len(pos), b.Name
	}
	sort.SliceStable(r.Benches, func(i, j int) bool {
		pi, ni := rank(r.Benches[i])
		pj, nj := rank(r.Benches[j])
		return pi < pj || (pi == pj && ni < nj)
	})
}
