package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/hale-lang/halebench/orchestrator/harness"
	"github.com/hale-lang/halebench/orchestrator/result"
)

// shardFlags are run's --shard flags (see shardHelp).
type shardFlags struct {
	spec   string
	shards int
	costs  string
}

const shardHelp = `Shards: --shard=K/N runs part K of N of the benches, for N machines (a CI
matrix, a cluster's indexed jobs); halebench merge joins the N reports into
one verdict. Every shard computes the same partition from the same inputs
(the benches selected, the baselines, --shard-costs): a bench's languages
stay together, and the benches are balanced by the cost an earlier report
recorded (--shard-costs), else the baselines' instructions and medians,
else their cells. --shard=auto reads K/N from GitLab's CI_NODE_INDEX and
CI_NODE_TOTAL (parallel: N), or K from Kubernetes' JOB_COMPLETION_INDEX
(from 0) with N from --shards or HALEBENCH_SHARDS; it says which on stderr.
The report's shard field names the partition and this shard's part.

`

func (s *shardFlags) addFlags(fs *flag.FlagSet) {
	fs.StringVar(&s.spec, "shard", "", "run only part `K/N` of the benches (e.g. 2/3), or auto: K/N from the CI's variables")
	fs.IntVar(&s.shards, "shards", 0, "with --shard=auto: how many shards, where the CI says only K (JOB_COMPLETION_INDEX)")
	fs.StringVar(&s.costs, "shard-costs", "", "balance the shards by the times this earlier `REPORT` of the suite recorded")
}

// apply puts the shard into the run's options; K/N read from the CI's
// variables is said on log.
func (s *shardFlags) apply(o *harness.Options, log io.Writer) error {
	sp, err := s.resolve(log)
	o.Shard, o.ShardCosts = sp, s.costs
	return err
}

// resolve is the shard the flags ask for (N 0: none), the same for every
// verb that shards; K/N read from the CI's variables is said on log.
func (s *shardFlags) resolve(log io.Writer) (result.Spec, error) {
	sp, ok, err := result.Resolve(s.spec, s.shards, os.Getenv)
	if err != nil {
		return result.Spec{}, err
	}
	if s.costs != "" && !ok {
		return result.Spec{}, fmt.Errorf("--shard-costs=%s balances shards: give --shard=K/N too", s.costs)
	}
	if ok && sp.From != "--shard" {
		fmt.Fprintf(log, "shard %s from %s\n", sp, sp.From)
	}
	return sp, nil
}
