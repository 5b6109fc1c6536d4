package harness

import (
	"errors"
	"fmt"

	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/result"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// selectShard keeps, on a sharded run, only this shard's benches of those
// selected, and records the partition for the report. Every shard reads
// the same catalogue, baselines and cost report, so every shard computes
// the same partition.
func (p *Plan) selectShard() error {
	sp := p.Shard
	if sp.N == 0 {
		return nil
	}
	if p.UpdateBaselines {
		return errors.New("--shard with --update-baselines: each shard would record a part of the file on its own machine; record baselines unsharded")
	}
	digest, err := plan.Digest(benchSources(p.Catalogue)) // before the split: the whole run's
	if err != nil {
		return err
	}
	costs, err := p.shardCosts()
	if err != nil {
		return err
	}
	part := result.Split(sp.N, costs)
	var keep []*suite.Bench
	for _, b := range p.Catalogue.Benches {
		if part.Has(sp.K, b.Name) {
			keep = append(keep, b)
		}
	}
	p.Catalogue.Benches = keep
	p.Partition = part.Field(sp, digest)
	fmt.Fprintf(p.Log, "shard %s (%s): %d of the run's %d benches, balanced by %s\n", sp, sp.From, len(keep), len(part.Benches), part.BalancedBy)
	return nil
}

// shardCosts is what each selected bench is expected to cost: as an
// earlier report (--shard-costs) recorded it, else as the baselines'
// figures predict, else its cells.
func (p *Plan) shardCosts() (result.Costs, error) {
	w := result.Work{Cells: map[string]int{}, Counted: map[string]int{}, CountRuns: p.CountRuns}
	if p.Count != CountOnly {
		w.Samples = p.Warmup + p.Iters
	}
	counted := map[string]bool{}
	if p.Count != CountOff {
		counted[p.SubjectLang.Name] = true
		for _, l := range p.CountedLangs {
			counted[l] = true
		}
	}
	for _, b := range p.Catalogue.Benches {
		w.Cells[b.Name] = 0
		for _, l := range p.Languages {
			if b.Sources[l.Name] != "" {
				w.Cells[b.Name]++
				if counted[l.Name] {
					w.Counted[b.Name]++
				}
			}
		}
	}
	if p.ShardCosts != "" {
		return result.FromReportFile(p.ShardCosts, w)
	}
	return result.FromBaselines(p.Baselines, p.Base, w), nil
}
