//go:build abwired

// The lead removes the build tag at the merge with the ab verb: this file
// is written against package ab's Bench and Result types; ab.Run and
// ab.Options (two images, one session) are this file's guess at its entry
// point.

package main

import (
	"context"
	"fmt"
	"time"

	"github.com/hale-lang/halebench/orchestrator/ab"
	"github.com/hale-lang/halebench/orchestrator/bisect"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/lifecycle"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
)

func init() { newJudge = newABJudge }

// abJudge builds one hale toolchain image per commit (the shared cargo
// target dir keeps a step to what changed) and compares two of them with
// ab's interleaved rounds.
type abJudge struct {
	s   *lifecycle.Session
	cfg bisectConfig
}

var _ bisect.Judge = (*abJudge)(nil)

func newABJudge(ctx context.Context, cfg bisectConfig) (bisect.Judge, func(), error) {
	s, err := lifecycle.Open(ctx, lifecycle.Options{Kind: "bisect", Images: cfg.Images, Log: cfg.Log})
	if err != nil {
		return nil, nil, err
	}
	return &abJudge{s: s, cfg: cfg}, s.Close, nil
}

// Build is the hale toolchain image of one commit. A build that fails is
// the commit's (ErrNotBuilt: skipped); anything else ends the bisect.
func (j *abJudge) Build(ctx context.Context, c bisect.Commit) (bisect.Side, error) {
	opts := j.cfg.Images
	opts.HaleRef, opts.RunID = c.ID, j.s.RunID
	b := imagebuild.New(j.s.Eng, j.s.BuildKit(), j.cfg.Log, opts)
	hale, _ := toolchain.ByName("hale")
	start := time.Now()
	tc, err := b.Toolchain(ctx, hale)
	side := bisect.Side{Commit: c, BuildSeconds: time.Since(start).Seconds()}
	switch {
	case err != nil:
		return side, err
	case tc.Status == imagebuild.BuildFailed:
		return side, fmt.Errorf("%s: %w", tc.Reason, bisect.ErrNotBuilt)
	case tc.Status != imagebuild.Available:
		return side, fmt.Errorf("hale at %s is %s: %s", c.ID, tc.Status, tc.Reason)
	}
	side.Image = tc.Ref
	return side, nil
}

// Compare is y over x per bench, from one ab run of the two images.
func (j *abJudge) Compare(ctx context.Context, x, y bisect.Side, benches []string) (map[string]bisect.Ratio, error) {
	res, err := ab.Run(ctx, j.s, ab.Options{
		AImage: x.Image, BImage: y.Image, Suite: j.cfg.Suite, Benches: benches,
		Langs: []string{"hale"}, Threshold: j.cfg.Threshold, Log: j.cfg.Log,
	})
	if err != nil {
		return nil, err
	}
	out := map[string]bisect.Ratio{}
	for _, b := range res.Benches {
		if b.Lang != "hale" || b.Ratio == 0 {
			continue // not measured on a side: not compared (judged like neither end)
		}
		r := bisect.Ratio{Ratio: b.Ratio, Low: b.RatioLow, High: b.RatioHigh}
		if j.cfg.Metric == "instructions" {
			if b.InstrRatio == 0 {
				return nil, fmt.Errorf("bench %s has no instruction counts (the count lane does not count hale here); use --metric=time", b.Name)
			}
			r = bisect.Ratio{Ratio: b.InstrRatio, Low: b.InstrRatio, High: b.InstrRatio} // exact
		}
		out[b.Name] = r
	}
	return out, nil
}
