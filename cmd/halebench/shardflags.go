package main

import (
	"flag"

	"github.com/hale-lang/halebench/orchestrator/plan"
)

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

// addShardFlags gives a verb that shards --shard, --shards and
// --shard-costs.
func addShardFlags(fs *flag.FlagSet, a *plan.Asked) {
	fs.StringVar(&a.Spec, "shard", "", "run only part `K/N` of the benches (e.g. 2/3), or auto: K/N from the CI's variables")
	fs.IntVar(&a.Shards, "shards", 0, "with --shard=auto: how many shards, where the CI says only K (JOB_COMPLETION_INDEX)")
	fs.StringVar(&a.Costs, "shard-costs", "", "balance the shards by the times this earlier `REPORT` of the suite recorded")
}
