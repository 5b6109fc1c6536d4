// The sequential bisect's Judge: one hale toolchain image per commit, and
// two commits compared with the ab verb's interleaved rounds (package ab).

package bisect

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/ab"
	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/session"
	"github.com/hale-lang/halebench/orchestrator/subject"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// Config is what an ABJudge is made from.
type Config struct {
	Suite     string
	Benches   []string
	Metric    string // instructions or time
	Threshold float64
	// Unprivileged runs every comparison's containers without privilege.
	Unprivileged bool
	Images       image.Options // the subject build is Hale's, at a commit (at)
	Hale         subject.Build // Git is the local repository; Ref is set per commit
	Log          io.Writer
}

// at is the image options that build hale at commit id.
func (c Config) at(id string) image.Options {
	o, hb := c.Images, c.Hale
	hb.Ref = id
	o.Subject = hb
	return o
}

// ABJudge builds one hale toolchain image per commit (the shared cargo
// target dir keeps a step to what changed) and compares two of them with
// ab's interleaved rounds. What touches the engine is its Steps; the rest
// (each commit built once, a failed build a skip, ab's figures read by the
// metric) is tested on a fake of them.
type ABJudge struct {
	cfg   Config
	steps Steps
	built map[string]Side // by commit id: each commit is built once
}

var _ Judge = (*ABJudge)(nil)

// NewABJudge is the judge of cfg whose engine work is steps.
func NewABJudge(cfg Config, steps Steps) *ABJudge {
	return &ABJudge{cfg: cfg, steps: steps, built: map[string]Side{}}
}

// OnEngine is the judge of cfg on an engine: each step in its own
// session.
func OnEngine(eng engine.Driver, cfg Config) *ABJudge {
	return NewABJudge(cfg, stepsOnEngine{eng: eng, images: cfg.Images, log: cfg.Log})
}

// Steps is what one bisect step does on the engine: build hale's
// toolchain image with o (hale at one commit), saying how long the build
// took (not the wait for the engine), and run ab's rounds on a prepared
// plan of two such builds.
type Steps interface {
	Toolchain(ctx context.Context, o image.Options) (image.Toolchain, time.Duration, error)
	AB(ctx context.Context, p *ab.Plan) (*ab.Result, error)
}

// stepsOnEngine are the steps on an engine, each in its own
// session: the engine lock is a session's, so none is held across them.
type stepsOnEngine struct {
	eng    engine.Driver
	images image.Options // the session's
	log    io.Writer
}

func (e stepsOnEngine) Toolchain(ctx context.Context, o image.Options) (image.Toolchain, time.Duration, error) {
	s, err := session.Open(ctx, session.Options{Kind: "bisect", Engine: e.eng, Images: e.images, Log: e.log})
	if err != nil {
		return image.Toolchain{}, 0, err
	}
	defer s.Close()
	start := time.Now()
	tc, err := s.BuilderWith(o).Toolchain(ctx, bisected())
	return tc, time.Since(start), err
}

func (e stepsOnEngine) AB(ctx context.Context, p *ab.Plan) (*ab.Result, error) {
	return ab.OnEngine(ctx, e.eng, p)
}

// Build is the hale toolchain image of one commit. A build that fails is
// the commit's (ErrNotBuilt: skipped); anything else ends the bisect.
func (j *ABJudge) Build(ctx context.Context, c Commit) (Side, error) {
	if side, ok := j.built[c.ID]; ok {
		side.BuildSeconds = 0 // found built
		return side, nil
	}
	tc, took, err := j.steps.Toolchain(ctx, j.cfg.at(c.ID))
	side := Side{Commit: c, BuildSeconds: took.Seconds()}
	switch {
	case err != nil:
		return side, err
	case tc.Status == image.BuildFailed:
		return side, fmt.Errorf("%s: %w", tc.Reason, ErrNotBuilt)
	case tc.Status != image.Available:
		return side, fmt.Errorf("hale at %s is %s: %s", c.ID, tc.Status, tc.Reason)
	}
	side.Image = tc.Ref
	j.built[c.ID] = side
	return side, nil
}

// Compare is y over x per bench, from one ab run of the two images.
func (j *ABJudge) Compare(ctx context.Context, x, y Side, benches []string) (map[string]Ratio, error) {
	side := func(sd Side) ab.SideSpec {
		return ab.SideSpec{Suite: j.cfg.Suite, Images: j.cfg.at(sd.Commit.ID), What: "hale " + sd.Commit.ID}
	}
	p, err := ab.Prepare(ab.Options{
		A: side(x), B: side(y), Bench: strings.Join(benches, ","), Subject: bisected().Name,
		Settings: ab.Settings{Threshold: j.cfg.Threshold}, Timeout: 2 * time.Minute,
		MemLimit: 4 << 30, OutCap: 1 << 20, Unprivileged: j.cfg.Unprivileged, Images: j.cfg.Images, Log: j.cfg.Log,
	})
	if err != nil {
		return nil, err
	}
	res, err := j.steps.AB(ctx, p)
	if err != nil {
		return nil, err
	}
	out := map[string]Ratio{}
	for _, b := range res.Benches {
		if b.Lang != bisected().Name || b.Ratio == 0 {
			continue // not measured on a side: not compared (judged like neither end)
		}
		r, err := judgeRatio(j.cfg.Metric, b.Name, Ratio{Ratio: b.Ratio, Low: b.RatioLow, High: b.RatioHigh}, b.InstrRatio, noInstr(b.CountStatus, b.Detail))
		if err != nil {
			return nil, err
		}
		out[b.Name] = r
	}
	return out, nil
}

// bisected is the language whose history bisect walks: the one whose
// toolchain is a subject build (hale).
func bisected() suite.Language {
	l, _ := suite.Built()
	return l
}

// judgeRatio is one bench's ratio by the metric asked (judge.Walked):
// instructions (exact, an interval of a point), time, or "" (the default):
// instructions with the time beside them where hale is counted stably,
// time where it is not. noInstr says why instr is 0 (no counts, or counts
// that are unstable).
func judgeRatio(name, bench string, t Ratio, instr float64, noInstr string) (Ratio, error) {
	t.Metric = judge.MetricTime.Name
	exact := Ratio{Ratio: instr, Low: instr, High: instr, Metric: judge.Instructions.Name}
	ratios := map[*judge.Metric]Ratio{judge.MetricTime: t, judge.Instructions: exact}
	m, err := judge.Walked(name, instr != 0)
	r, measured := ratios[m]
	switch {
	case err != nil:
		return Ratio{}, err
	case !measured:
		return Ratio{}, fmt.Errorf("bench %s: ab does not measure %s", bench, m.Name)
	case m == judge.Instructions && instr == 0:
		return Ratio{}, fmt.Errorf("bench %s has no instruction ratio (%s); use --metric=%s or leave the bench out", bench, noInstr, judge.MetricTime.Name)
	case m == judge.Instructions && name == "":
		r.Time = &t
	}
	return r, nil
}

// noInstr says why a compared bench has no instruction ratio: its counts
// are unstable on a side (they cannot place a commit), or it was not counted.
func noInstr(st outcome.Status, detail string) string {
	if st == outcome.CountUnstable {
		return "its instruction counts are unstable: " + orNone(detail, "a side's runs disagree or it starts a thread") + "; they cannot place a commit"
	}
	return orNone(detail, "the count lane does not count hale here")
}

// orNone is s, or none when s is empty.
func orNone(s, none string) string {
	if s == "" {
		return none
	}
	return s
}
