package plan

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"
)

// Costs are what each bench of a run is expected to cost (any unit, the
// same for all), and where the figures came from.
type Costs struct {
	Of map[string]int64
	By string // e.g. "baselines-c.json: recorded instructions"
}

// Partition is a run's benches split over N shards.
type Partition struct {
	N          int
	Benches    []string   // every bench of the run, sorted
	Parts      [][]string // Parts[k-1] is shard k's benches, sorted
	Loads      []int64    // each shard's summed cost
	BalancedBy string
	// Digest names N and every shard's benches: shards that computed the
	// same partition have the same digest.
	Digest string
}

// Split partitions the benches costs name over n shards, balanced by
// their costs: longest processing time first — each bench, costliest
// first (ties by name), goes to the shard with the least cost so far (ties
// to the lowest K). Every input is ordered before it is used, so every
// shard computes the same partition from the same costs, whatever order
// they were gathered in. A cost below 1 counts as 1.
func Split(n int, c Costs) Partition {
	p := Partition{N: n, Parts: make([][]string, n), Loads: make([]int64, n), BalancedBy: c.By}
	for name := range c.Of {
		p.Benches = append(p.Benches, name)
	}
	sort.Strings(p.Benches)
	order := append([]string(nil), p.Benches...)
	sort.SliceStable(order, func(i, j int) bool { return cost(c, order[i]) > cost(c, order[j]) })
	for _, name := range order {
		least := 0
		for k := 1; k < n; k++ {
			if p.Loads[k] < p.Loads[least] {
				least = k
			}
		}
		p.Parts[least] = append(p.Parts[least], name)
		p.Loads[least] += cost(c, name)
	}
	for _, part := range p.Parts {
		sort.Strings(part)
	}
	p.Digest = digest(n, p.Parts)
	return p
}

func cost(c Costs, name string) int64 {
	if v := c.Of[name]; v > 0 {
		return v
	}
	return 1
}

// digest names a partition by N and each shard's benches.
func digest(n int, parts [][]string) string {
	h := sha256.New()
	fmt.Fprintf(h, "halebench-partition/1\n%d\n", n)
	for k, part := range parts {
		fmt.Fprintf(h, "%d", k+1)
		for _, name := range part {
			fmt.Fprintf(h, " %s", name)
		}
		fmt.Fprintln(h)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// Part is shard k's benches (k from 1).
func (p Partition) Part(k int) []string { return p.Parts[k-1] }

// Has says whether shard k runs bench name.
func (p Partition) Has(k int, name string) bool {
	i := sort.SearchStrings(p.Parts[k-1], name)
	return i < len(p.Parts[k-1]) && p.Parts[k-1][i] == name
}
