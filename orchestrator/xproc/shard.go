package xproc

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"

	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/shard"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
)

// Unit names what a shard of xproc holds: one language's pair (all its
// rows: Hale's two readers stay together) in one variant, "small/go".
func Unit(variant, lang string) string { return variant + "/" + lang }

// selectShard is, on a sharded xproc, the units this shard measures and
// the partition for the report (nil, nil: unsharded). It is run's
// partition (shard.Split) over the units, balanced by their rows: no
// report records what a pair costs before it ran.
func selectShard(o Options) (map[string]bool, *report.Shard, error) {
	sp := o.Shard
	if sp.N == 0 {
		return nil, nil, nil
	}
	w := shard.Work{Cells: map[string]int{}}
	for _, v := range o.Variants {
		for _, l := range o.Langs {
			w.Cells[Unit(v, l.Name)] = len(Rows(v, []toolchain.Language{l}))
		}
	}
	digest, err := sourcesDigest(o)
	if err != nil {
		return nil, nil, err
	}
	part := shard.Split(sp.N, shard.ByCells(w))
	keep := map[string]bool{}
	for _, u := range part.Part(sp.K) {
		keep[u] = true
	}
	fmt.Fprintf(o.Log, "xproc: shard %s (%s): %d of the %d pairs, balanced by %s\n", sp, sp.From, len(keep), len(part.Benches), part.BalancedBy)
	return keep, part.Field(sp, digest), nil
}

// sourcesDigest names the xproc programs of every language asked, by
// language and unit (not by path): the shards of one xproc have the same.
func sourcesDigest(o Options) (string, error) {
	h := sha256.New()
	for _, l := range o.Langs {
		for _, s := range Sources(o.Suite, l) {
			data, err := os.ReadFile(s.Path)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(h, "%s %s %x\n", l.Name, s.Unit, sha256.Sum256(data))
		}
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// langsOf are the languages of the units kept, in o.Langs' order.
func langsOf(o Options, keep map[string]bool) []toolchain.Language {
	var out []toolchain.Language
	for _, l := range o.Langs {
		for _, v := range o.Variants {
			if keep[Unit(v, l.Name)] {
				out = append(out, l)
				break
			}
		}
	}
	return out
}
