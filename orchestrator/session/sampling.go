package session

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/runner"
)

// Sampling is a session ready to sample: it exists only once the privilege
// probe ran, so nothing can sample before it.
type Sampling struct {
	s       *Session
	priv    engine.Privilege
	refused []engine.Attempt
	mu      sync.Mutex // the count lane samples from several goroutines
	pool    *runner.Pool
}

// Ready finds the most privilege the host grants a container, always on
// the same image (the sampler's toolchain image, which every run has),
// pins this process to CPU 0 and returns what samples with that privilege
// (the CPUs are the session's already: Open took the engine's lock). A second call returns the same Sampling.
//
// When an image the session's builder handed out is not trusted (restored
// from a cache folder with no signature this job could check, or built on
// one that was), nothing runs privileged: the sampler runs unprivileged,
// as with --unprivileged, and the withheld modes are among the refusals
// with why.
func (s *Session) Ready(ctx context.Context) (*Sampling, error) {
	if s.sampling != nil {
		return s.sampling, nil
	}
	tc, err := s.Builder.SamplerToolchain(ctx)
	if err != nil {
		return nil, err
	}
	untrusted := s.Builder.Untrusted()
	priv, refused, err := s.Eng.ProbePrivilege(ctx, tc.Ref, s.RunID, s.opts.Unprivileged || len(untrusted) > 0)
	if err != nil {
		return nil, err
	}
	if len(untrusted) > 0 && !s.opts.Unprivileged {
		refused = append(withheld(untrusted), refused...)
		fmt.Fprintf(s.opts.Log, "privilege: running unprivileged: %d images are not trusted (%s)\n", len(untrusted), strings.Join(untrusted, "; "))
	} else if priv.Mode != engine.ModePrivileged {
		fmt.Fprintf(s.opts.Log, "privilege: running %s (%d stronger modes refused by the engine; see host.privilege_refusals)\n", priv, len(refused))
	}
	pinSelf(s.opts.Log)
	s.sampling = &Sampling{s: s, priv: priv, refused: refused}
	return s.sampling, nil
}

// Privilege is what the probe found, and the stronger modes the engine
// refused on the way.
func (sp *Sampling) Privilege() (engine.Privilege, []engine.Attempt) {
	return sp.priv, sp.refused
}

// withheld are the modes stronger than unprivileged, each refused by
// halebench because of the images not trusted.
func withheld(untrusted []string) []engine.Attempt {
	why := "withheld by halebench: not trusted: " + strings.Join(untrusted, "; ")
	var out []engine.Attempt
	for _, p := range engine.Candidates(false) {
		if p.Mode != engine.ModeUnprivileged {
			out = append(out, engine.Attempt{Privilege: p, Error: why})
		}
	}
	return out
}

// Sample runs a job in the sampler container for w, started on first use.
// An image not trusted never runs with privilege: should one be made after
// Ready (which then saw none), its job is refused.
func (sp *Sampling) Sample(ctx context.Context, w runner.Where, j runner.Job) runner.Outcome {
	if o, bad := sp.refuse(w); bad {
		return o
	}
	return sp.getPool().Sample(ctx, w, j)
}

// SamplePair runs an xproc pair's jobs in the pool's pair of sampler
// containers for w (runner.Pool.SamplePair), under Sample's rule on
// images not trusted.
func (sp *Sampling) SamplePair(ctx context.Context, w runner.PairWhere, reader, producer runner.Job) (runner.Outcome, *runner.Outcome) {
	for _, side := range []runner.Where{w.Reader, w.Producer} {
		if o, bad := sp.refuse(side); bad {
			return o, nil
		}
	}
	return sp.getPool().SamplePair(ctx, w, reader, producer)
}

// refuse is the outcome of a job on an image not trusted while the
// samplers run privileged.
func (sp *Sampling) refuse(w runner.Where) (runner.Outcome, bool) {
	why, bad := sp.s.Builder.Distrusts(w.Image)
	if !bad || sp.priv.Mode == engine.ModeUnprivileged {
		return runner.Outcome{}, false
	}
	return runner.Outcome{Status: outcome.RunFailed, Samples: []runner.Sample{}, CPUsAsked: w.CPUs,
		Detail: fmt.Sprintf("image %s is not trusted (%s) and the samplers run %s: run again with --unprivileged", w.Image, why, sp.priv)}, true
}

func (sp *Sampling) getPool() *runner.Pool {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.pool == nil {
		sp.pool = runner.NewPool(sp.s.Eng, sp.priv, sp.s.RunID, sp.s.opts.MemLimit, sp.s.opts.Log)
	}
	return sp.pool
}

// CloseSamplers ends the sampler containers and lists what was started;
// the next Sample starts fresh ones.
func (sp *Sampling) CloseSamplers() []runner.Started {
	sp.mu.Lock()
	defer sp.mu.Unlock()
	if sp.pool == nil {
		return []runner.Started{}
	}
	sp.pool.Close()
	started := sp.pool.Started()
	sp.pool = nil
	return started
}
