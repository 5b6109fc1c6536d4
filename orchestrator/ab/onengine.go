package ab

import (
	"context"
	"fmt"
	"math/rand"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/session"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// ErrSide says a side could not be built at all: exit 2, or 3 when it is
// the subject's toolchain that could not be had (it wraps judge.ErrUnmeasured).
type ErrSide struct {
	Side string
	Err  error
}

func (e *ErrSide) Error() string { return "side " + e.Side + ": " + e.Err.Error() }
func (e *ErrSide) Unwrap() error { return e.Err }

// OnEngine runs a prepared A/B in one session on eng (dialled
// by the caller): both sides' images built (each side with its own image
// options, so two hale builds coexist under their content-keyed tags),
// the privilege probed, then Compare's rounds in the session's samplers.
func OnEngine(ctx context.Context, eng engine.Driver, p *Plan) (*Result, error) {
	s, err := session.Open(ctx, session.Options{Kind: "ab", Engine: eng, Images: p.Images, Unprivileged: p.Unprivileged, MemLimit: p.MemLimit, Log: p.Log})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	if pl := session.PlatformOf(s.Host, s.Builder.Arch()); pl.Emulated != "" {
		// ab's verdicts are times; an emulator's are no measurement.
		return nil, fmt.Errorf("ab --platform=linux/%s: %s; compare %s builds on a %s host, or count them with run --count=only", pl.Arch, pl.Emulated, pl.Arch, pl.Arch)
	}
	a, err := buildSide(ctx, s, "A", p.A, p.ASuite, p)
	if err != nil {
		return nil, err
	}
	b, err := buildSide(ctx, s, "B", p.B, p.BSuite, p)
	if err != nil {
		return nil, err
	}
	sp, err := s.Ready(ctx)
	if err != nil {
		return nil, err
	}
	set := p.Settings
	if set.Seed == 0 {
		set.Seed = time.Now().UnixNano() & (1<<53 - 1)
	}
	set.Log = p.Log
	var host report.Host
	res := Compare(ctx, &noting{Sampler: sp, host: &host}, pairs(p, s.Host.LogicalCPUs, a, b, set.Seed), set)
	sp.CloseSamplers()
	evidence(res, s, sp, &host, p, a, b)
	res.A, res.B, res.SameSides = p.A.What, p.B.What, p.Same
	for _, l := range p.Langs {
		if ra := a.images[l.Name].Ref; ra != "" && ra == b.images[l.Name].Ref {
			res.Warnings = append(res.Warnings, fmt.Sprintf("%s: A and B built the same bench image (%s): an A/A", l.Name, ra))
		}
	}
	if ctx.Err() != nil {
		return res, session.ErrInterrupted
	}
	return res, nil
}

// built is one side's images: each language's bench image, or why none.
type built struct {
	images  map[string]image.BenchImage
	missing map[string]string
	all     *session.Images // for the result's evidence
}

// buildSide makes one side's toolchains and bench images. A side whose
// subject has no toolchain, or whose images cannot be made, does not build
// at all: that is an ErrSide.
func buildSide(ctx context.Context, s *session.Session, side string, spec SideSpec, cat *suite.Suite, p *Plan) (built, error) {
	fmt.Fprintf(p.Log, "ab: side %s: %s\n", side, spec.What)
	o := p.Images
	o.Subject = spec.Images.Subject // the side's own subject build (its hale)
	imgs, err := session.BuildImages(ctx, s.BuilderWith(o), session.Need{
		Langs: p.Langs,
		Sources: func(l suite.Language) []image.Source {
			var srcs []image.Source
			for _, b := range cat.All {
				if path := b.Sources[l.Name]; path != "" {
					srcs = append(srcs, image.Source{Unit: b.Name, Path: path})
				}
			}
			return srcs
		},
	}, p.Log)
	if err != nil {
		return built{}, &ErrSide{Side: side, Err: err}
	}
	out := built{images: imgs.Benches, missing: map[string]string{}, all: imgs}
	for _, l := range p.Langs {
		tc := imgs.Toolchains[l.Name]
		if tc.Status != image.Available {
			if l.Name == p.Subject {
				// Nothing to compare without it: judge.ErrUnmeasured (exit 3).
				return out, &ErrSide{Side: side, Err: fmt.Errorf("%s is %s: %s: %w", l.Name, tc.Status, tc.Reason, judge.ErrUnmeasured)}
			}
			out.missing[l.Name] = fmt.Sprintf("%s is %s", l.Name, tc.Status)
		}
	}
	return out, nil
}

// pairs is every (bench, language) to compare, each side's job or why it
// has none; both sides of a bench get the same cpuset.
func pairs(p *Plan, ncpu int, a, b built, seed int64) []Pair {
	rng := rand.New(rand.NewSource(seed))
	var out []Pair
	for _, name := range p.Names {
		ba, bb := bench(p.ASuite, name), bench(p.BSuite, name)
		need := 1
		if ba != nil {
			need = ba.CPUs
		} else if bb != nil {
			need = bb.CPUs
		}
		cpus, _, cpuErr := runner.PlanCPUs(ncpu, need)
		benchSeed := rng.Int63n(1 << 31)
		for _, l := range p.Langs {
			pr := Pair{Name: name, Lang: l.Name}
			pr.A = side(p, ba, l, a, cpus, benchSeed)
			pr.B = side(p, bb, l, b, cpus, benchSeed)
			if cpuErr != nil {
				pr.A.Missing, pr.B.Missing = cpuErr.Error(), cpuErr.Error()
			}
			if ba != nil && ba.Sources[l.Name] == "" && bb != nil && bb.Sources[l.Name] == "" {
				continue // the language has no program of this bench on either side
			}
			pr.A.Job.Count, pr.NotCounted = countJob(l, name, p.Timeout)
			pr.B.Job.Count = pr.A.Job.Count
			out = append(out, pr)
		}
	}
	return out
}

func side(p *Plan, b *suite.Bench, l suite.Language, bt built, cpus string, seed int64) Side {
	switch {
	case b == nil:
		return Side{Missing: "no such bench"}
	case b.Sources[l.Name] == "":
		return Side{Missing: "no " + l.Name + " program"}
	case bt.missing[l.Name] != "":
		return Side{Missing: bt.missing[l.Name]}
	case bt.images[l.Name].Ref == "":
		return Side{Missing: "no bench image"}
	}
	w, j := runner.Place(b, l, bt.images[l.Name], cpus, seed, runner.Limits{Timeout: p.Timeout, MemLimit: p.MemLimit, OutCap: p.OutCap})
	return Side{Where: w, Job: j}
}
