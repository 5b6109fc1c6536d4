package report

import (
	"fmt"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/stamp"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// MaxShards bounds a stored shard field's Total: a document naming more
// shards is no document halebench wrote (plan.MaxShards bounds --shard to
// the same; collect's tests hold the two equal).
const MaxShards = 1000

// Shard is the partition of a sharded run (run --shard=K/N) and the part a
// report holds. In a report halebench merge wrote, Index is 0 and Parts
// keeps each shard's own evidence.
type Shard struct {
	Index int    `json:"index"` // K, from 1; 0 in a merged report
	Total int    `json:"total"` // N
	From  string `json:"from,omitempty"`
	// SuiteBenches is every bench of the run over all shards, sorted.
	SuiteBenches []string `json:"suite_benches"`
	// Benches is this shard's, sorted (in a merged report, all of them).
	Benches    []string `json:"benches"`
	BalancedBy string   `json:"balanced_by"`
	// Loads is each shard's planned cost, in BalancedBy's unit.
	Loads []int64 `json:"planned_loads,omitempty"`
	// Digest names N and every shard's benches: the shards of one run
	// have the same.
	Digest string `json:"partition_digest"`
	// SuiteSourcesDigest is the sources digest of SuiteBenches: what an
	// unsharded run of the same benches records as its sources_digest.
	SuiteSourcesDigest string      `json:"suite_sources_digest"`
	Parts              []ShardPart `json:"parts,omitempty"`
}

// ShardPart is one shard's own record in a merged report: its run, the
// host that ran it, its benches and verdict.
type ShardPart struct {
	Index            int            `json:"index"`
	File             string         `json:"file"`
	RunID            string         `json:"run_id"`
	Halebench        *stamp.Tool    `json:"halebench,omitempty"` // which halebench made the shard
	GeneratedAt      string         `json:"generated_at"`
	Status           outcome.Status `json:"status"`
	Host             Host           `json:"host"`
	GateMachine      string         `json:"gate_machine"`
	Benches          []string       `json:"benches"`
	CountCostSeconds float64        `json:"count_cost_seconds,omitempty"`
	SourcesDigest    string         `json:"sources_digest"`
}

// CheckDigest refuses a stored digest that is not "sha256:" and 64
// lowercase hex digits (what halebench writes): a reader may then name it
// by its first hex digits without guarding. field names it in the error.
func CheckDigest(field, d string) error {
	hexPart, ok := strings.CutPrefix(d, "sha256:")
	if !ok || len(hexPart) != 64 || strings.Trim(hexPart, "0123456789abcdef") != "" {
		return fmt.Errorf("%s %q is not a sha256 digest (\"sha256:\" and 64 lowercase hex digits)", field, termtext.Line(d))
	}
	return nil
}
