package harness

import (
	"errors"
	"fmt"

	"github.com/hale-lang/halebench/orchestrator/collect"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/result"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// selectShard keeps, on a sharded run, only this shard's benches of those
// selected (plan.Divide: a run's unit is a bench), and records the
// partition for the report. Every shard reads the same catalogue,
// baselines and cost report, so every shard computes the same partition.
func (p *Plan) selectShard() error {
	if p.Shard.N == 0 {
		return nil
	}
	if p.UpdateBaselines {
		return errors.New("--shard with --update-baselines: each shard would record a part of the file on its own machine; record baselines unsharded")
	}
	costs, err := p.shardCosts()
	if err != nil {
		return err
	}
	share, err := plan.Divide(p.Shard, costs, benchSources(p.Catalogue)) // before the split: the whole run's
	if err != nil {
		return err
	}
	var keep []*suite.Bench
	for _, b := range p.Catalogue.Benches {
		if share.Keeps(b.Name) {
			keep = append(keep, b)
		}
	}
	p.Catalogue.Benches = keep
	p.Partition = collect.Shard(share)
	fmt.Fprintln(p.Log, share.Said("benches"))
	return nil
}

// shardCosts is what each selected bench is expected to cost: as an
// earlier report (--shard-costs) recorded it, else as the baselines'
// figures predict, else its cells.
func (p *Plan) shardCosts() (plan.Costs, error) {
	w := plan.Work{Cells: map[string]int{}, Counted: map[string]int{}, CountRuns: p.CountRuns}
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
		took, err := result.JobTimes(p.ShardCosts)
		if err != nil {
			return plan.Costs{}, err
		}
		return plan.FromReport(p.ShardCosts, took, w), nil
	}
	rec := map[string]plan.Recorded{}
	for name, e := range p.Base.Benches {
		if e != nil {
			rec[name] = plan.Recorded{Instructions: e.Instructions, ElapsedNs: e.ElapsedNs}
		}
	}
	return plan.FromBaselines(p.Baselines, rec, w), nil
}
