package ab

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// SideSpec is one side as the user gave it: its suite folder (holding
// benches/) and its image options (a hale build of its own), and how to
// name it.
type SideSpec struct {
	Suite  string
	Images image.Options
	What   string // e.g. "suite ./benches-b", "hale v0.16.0"
}

// Options are an ab run's settings (the CLI's flags).
type Options struct {
	A, B         SideSpec
	Bench        string // comma-separated; "" every bench of either side
	Langs        string // languages compared; "" the subject only
	Subject      string
	Settings     Settings
	Timeout      time.Duration // per sample
	MemLimit     int64
	OutCap       int
	Unprivileged bool
	Images       image.Options // the session's (base image, mirror, no-build)
	Log          io.Writer
	// Shard is this ab's part of a sharded ab (N 0: unsharded);
	// ShardCosts an earlier run report whose recorded times balance it.
	Shard      plan.Spec
	ShardCosts string
}

// Plan is an ab run whose inputs are read and checked.
type Plan struct {
	Options
	ASuite, BSuite *suite.Suite
	Langs          []suite.Language
	Names          []string // the benches compared, sorted
	Same           bool     // A and B are given alike: an A/A
	// Partition is the sharded ab's partition and this shard's part (nil:
	// unsharded); Names then holds this shard's benches only.
	Partition *report.Shard
	// SourcesDigest is the digest of both sides' programs of Names, the
	// result's sources_digest.
	SourcesDigest string
}

// Prepare reads both sides' suites and checks every flag without an
// engine; its errors are the user's to fix.
func Prepare(o Options) (*Plan, error) {
	if o.Log == nil {
		o.Log = io.Discard
	}
	// Checked as given, before Defaults: a --threshold=0 read as "the
	// default" would be a band nobody asked for.
	if err := judge.CheckBand("--threshold", o.Settings.Threshold); err != nil {
		return nil, err
	}
	if o.Settings.Budget < 0 {
		return nil, fmt.Errorf("--budget=%s: cannot be negative (0: no budget)", o.Settings.Budget)
	}
	if o.Settings.Warmup < 0 {
		return nil, fmt.Errorf("--warmup=%d: cannot be negative", o.Settings.Warmup)
	}
	s := o.Settings.Defaults()
	if s.MinRounds < 3 || s.MaxRounds < s.MinRounds || s.MaxRounds > 1000 {
		return nil, fmt.Errorf("--min-rounds=%d --max-rounds=%d: want 3 ≤ min ≤ max ≤ 1000", s.MinRounds, s.MaxRounds)
	}
	if o.Timeout <= 0 {
		return nil, fmt.Errorf("--timeout=%s: must be positive", o.Timeout)
	}
	p := &Plan{Options: o}
	var err error
	if p.ASuite, err = suite.Load(o.A.Suite); err != nil {
		return nil, fmt.Errorf("side A: %w", err)
	}
	if p.BSuite, err = suite.Load(o.B.Suite); err != nil {
		return nil, fmt.Errorf("side B: %w", err)
	}
	if p.Names, err = selectNames(p.ASuite, p.BSuite, o.Bench); err != nil {
		return nil, err
	}
	if p.Langs, err = languages(o.Langs, o.Subject); err != nil {
		return nil, err
	}
	if err := plan.CostsNeedShard(o.Shard, o.ShardCosts); err != nil {
		return nil, err
	}
	if err = p.selectShard(); err != nil {
		return nil, err
	}
	if p.SourcesDigest, err = plan.Digest(p.sources()); err != nil {
		return nil, err
	}
	p.Same = o.A.What == o.B.What
	if p.Same {
		fmt.Fprintf(o.Log, "ab: A and B are both %s: an A/A, nothing should differ\n", o.A.What)
	}
	return p, nil
}

// selectNames is every bench either side has, or the list, each of which
// one side at least must have.
func selectNames(a, b *suite.Suite, list string) ([]string, error) {
	have := map[string]bool{}
	for _, s := range []*suite.Suite{a, b} {
		for _, bench := range s.All {
			have[bench.Name] = true
		}
	}
	var out []string
	if strings.TrimSpace(list) == "" {
		for n := range have {
			out = append(out, n)
		}
	} else {
		for _, n := range strings.Split(list, ",") {
			if n = strings.TrimSpace(n); n == "" {
				continue
			}
			if !have[n] {
				return nil, fmt.Errorf("--bench: no bench named %q in %s or %s", n, a.Dir, b.Dir)
			}
			out = append(out, n)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no bench to compare: both suites are empty")
	}
	sort.Strings(out)
	return out, nil
}

func languages(list, subject string) ([]suite.Language, error) {
	if _, ok := suite.ByName(subject); !ok {
		return nil, fmt.Errorf("--subject=%s: unknown language (known: %s)", subject, suite.Names())
	}
	if strings.TrimSpace(list) == "" {
		list = subject
	}
	return suite.Parse(list)
}

// bench is the named bench of a suite, nil when it has none.
func bench(s *suite.Suite, name string) *suite.Bench {
	for _, b := range s.All {
		if b.Name == name {
			return b
		}
	}
	return nil
}
