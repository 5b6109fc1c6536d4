package result

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/stamp"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// ABShard is one shard's ab result (ab --shard=K/N) and the file it came
// from.
type ABShard struct {
	File   string
	Result *report.Result
}

// check refuses a result that is no complete shard of an ab.
func (s ABShard) check() error {
	r, sh := s.Result, s.Result.Shard
	if r.Schema != report.ABSchema {
		return refuse(s.File, "schema %q; want an ab result (%s)", r.Schema, report.ABSchema)
	}
	if err := checkField(s.File, "result", "an ab", sh, r.StoppedBy == "interrupted"); err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, b := range r.Benches {
		if !has(sh.Benches, b.Name) || !has(sh.SuiteBenches, b.Name) {
			return refuse(s.File, "holds bench %s, which is not shard %d's part (%v)", b.Name, sh.Index, sh.Benches)
		}
		seen[b.Name] = true
	}
	for _, name := range sh.Benches {
		if !seen[name] {
			return refuse(s.File, "shard %d's part names %s, but the result has no row for it", sh.Index, name)
		}
	}
	return nil
}

// AB joins the shards of one ab into one result, written at (RFC 3339),
// or refuses them (a *Refusal). Each bench's rows are its shard's as they
// are: its paired samples, its ratio B/A with its interval and its
// verdict, measured round by round on that shard's machine.
func MergeAB(shards []ABShard, at string) (*report.Result, error) {
	if len(shards) == 0 {
		return nil, errors.New("no shard results given")
	}
	for _, s := range shards {
		if err := s.check(); err != nil {
			return nil, err
		}
	}
	sorted := append([]ABShard(nil), shards...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Result.Shard.Index < sorted[j].Result.Shard.Index })
	if err := sameAB(sorted); err != nil {
		return nil, err
	}
	first := *sorted[0].Result
	m := &first // the comparison's facts, which the shards agree on, from shard 1
	sh := *first.Shard
	m.GeneratedAt, m.RunID, m.SourcesDigest = at, "merged-"+termtext.ShortID(sh.Digest), sh.SuiteSourcesDigest
	m.Shard, m.Benches, m.Warnings, m.Rounds, m.ElapsedNs = &sh, nil, nil, 0, 0
	m.Halebench = stamp.This() // the merge's writer; each part keeps its shard's
	sh.Index, sh.From, sh.Benches, sh.Parts = 0, "", sh.SuiteBenches, nil
	var stopped []string
	for _, s := range sorted {
		r := s.Result
		m.Benches = append(m.Benches, r.Benches...)
		m.Warnings = appendNew(m.Warnings, r.Warnings...)
		m.Rounds, m.ElapsedNs = max(m.Rounds, r.Rounds), max(m.ElapsedNs, r.ElapsedNs)
		stopped = appendNew(stopped, r.StoppedBy)
		if r.Seed != first.Seed {
			m.Warnings = appendNew(m.Warnings, fmt.Sprintf("shard %d's rounds were ordered by seed %d, shard 1's by %d", r.Shard.Index, r.Seed, first.Seed))
		}
		sh.Parts = append(sh.Parts, report.ShardPart{Index: r.Shard.Index, File: s.File, RunID: r.RunID, Halebench: r.Halebench, GeneratedAt: r.GeneratedAt,
			Status: outcome.OK, Host: r.Host, Benches: r.Shard.Benches, SourcesDigest: r.Shard.SuiteSourcesDigest})
	}
	m.StoppedBy = strings.Join(stopped, ", ")
	sort.SliceStable(m.Benches, func(i, j int) bool { return m.Benches[i].Name < m.Benches[j].Name })
	return m, nil
}

// sameAB refuses shards that are not all of one ab: each against the
// first, its partition, images and settings; then a shard given twice, a
// bench in two shards, a shard missing.
func sameAB(shards []ABShard) error {
	ref := shards[0]
	var files []string
	var fields []*report.Shard
	for i, s := range shards {
		if i > 0 {
			if err := samePartition(ref.File, s.File, ref.Result.Shard, s.Result.Shard); err != nil {
				return err
			}
			if err := agree(ref.File, s.File, "built", abBuilds(ref.Result), abBuilds(s.Result)); err != nil {
				return err
			}
			if err := agree(ref.File, s.File, "compared", abSettings(ref.Result), abSettings(s.Result)); err != nil {
				return err
			}
		}
		files, fields = append(files, s.File), append(fields, s.Result.Shard)
	}
	return onceEach("ab", "bench", "result", files, fields)
}

// abBuilds are the images each side measured: shards of one ab measure
// the same two subject builds in the same images.
func abBuilds(r *report.Result) []fact {
	var fs []fact
	for _, sd := range r.Sides {
		fs = append(fs, imageFacts("side "+sd.Name+"'s ", sd.Base, sd.Images, sd.BenchImages)...)
	}
	return fs
}

// abSettings are what an ab compared and how: the sides, the subject,
// the metric, the band and the looks.
func abSettings(r *report.Result) []fact {
	return []fact{{"side A", r.A}, {"side B", r.B}, {"the subject", r.Subject}, {"--metric", r.MetricOf().Name},
		{"--threshold", fmt.Sprint(r.Threshold)}, {"the confidence", fmt.Sprint(r.Confidence)}, {"the looks", fmt.Sprint(r.Looks)}}
}
