package ab

import (
	"fmt"

	"github.com/hale-lang/halebench/orchestrator/collect"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/result"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// selectShard keeps, on a sharded ab, only this shard's benches of those
// selected and records the partition for the result. The partition is
// run's (plan.Divide): a bench is never split — its languages and both of
// its sides stay in one shard, so its paired ratio is whole — and the
// benches are balanced by what an earlier run report recorded
// (ShardCosts) or else by their cells. Every shard reads the same suites
// and the same cost report, so every shard computes the same partition.
func (p *Plan) selectShard() error {
	if p.Shard.N == 0 {
		return nil
	}
	w := plan.Work{Cells: map[string]int{}, Counted: map[string]int{}, Samples: 2 * (p.Settings.Defaults().MinRounds + p.Settings.Warmup)}
	for _, name := range p.Names {
		w.Cells[name] = 0
		for _, l := range p.Langs {
			for _, s := range []*suite.Suite{p.ASuite, p.BSuite} {
				if b := bench(s, name); b != nil && b.Sources[l.Name] != "" {
					w.Cells[name]++
				}
			}
		}
	}
	costs := plan.ByCells(w)
	if p.ShardCosts != "" {
		took, err := result.JobTimes(p.ShardCosts)
		if err != nil {
			return err
		}
		costs = plan.FromReport(p.ShardCosts, took, w)
	}
	share, err := plan.Divide(p.Shard, costs, p.sources())
	if err != nil {
		return err
	}
	p.Names = share.Units()
	p.Partition = collect.Shard(share)
	fmt.Fprintln(p.Log, "ab: "+share.Said("benches"))
	return nil
}

// sources are both sides' programs of the selected benches, named by
// side, bench and language (not by path: two machines check the suites
// out in different places), so the shards of one ab digest alike.
func (p *Plan) sources() []plan.Source {
	var srcs []plan.Source
	for i, s := range []*suite.Suite{p.ASuite, p.BSuite} {
		for _, name := range p.Names {
			b := bench(s, name)
			if b == nil {
				continue
			}
			for _, l := range p.Langs {
				if path := b.Sources[l.Name]; path != "" {
					srcs = append(srcs, plan.Source{Name: "AB"[i:i+1] + " " + name + " " + l.Name, Path: path})
				}
			}
		}
	}
	return srcs
}
