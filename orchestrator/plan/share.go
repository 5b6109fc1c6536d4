package plan

import "fmt"

// Share is one shard's part of a sharded plan, the same for run, ab and
// xproc: which of the plan's units (a run's or an ab's benches, xproc's
// pairs) this shard measures, and what its report records of the
// partition. Every shard computes it alike from the same inputs.
type Share struct {
	Spec      Spec
	Partition Partition
	// SourcesDigest is the whole plan's sources digest (Digest of every
	// unit's sources, taken before the split): what an unsharded run of
	// the plan records, so a merge of the shards can record it too.
	SourcesDigest string
}

// Divide is shard sp's share of the units costs names (every unit of the
// plan, each with its expected cost), srcs being the whole plan's sources.
// A unit is never split: what one unit holds (a bench's languages, both
// sides of an ab bench, an xproc language's rows) is compared within it,
// so it runs on one machine.
func Divide(sp Spec, costs Costs, srcs []Source) (Share, error) {
	digest, err := Digest(srcs)
	if err != nil {
		return Share{}, err
	}
	return Share{Spec: sp, Partition: Split(sp.N, costs), SourcesDigest: digest}, nil
}

// Keeps says whether this shard measures unit.
func (s Share) Keeps(unit string) bool { return s.Partition.Has(s.Spec.K, unit) }

// Units are this shard's units, sorted.
func (s Share) Units() []string { return s.Partition.Part(s.Spec.K) }

// Said is the line a verb prints of its share: "shard 2/3 (--shard): 4 of
// the 11 benches, balanced by cells (no recorded cost)"; noun names the
// units.
func (s Share) Said(noun string) string {
	return fmt.Sprintf("shard %s (%s): %d of the %d %s, balanced by %s", s.Spec, s.Spec.From, len(s.Units()), len(s.Partition.Benches), noun, s.Partition.BalancedBy)
}
