package runner

import (
	"context"
	"fmt"
	"io"
	"sync"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/outcome"
)

// Where says which sampler container a job runs in: a language's bench
// image pinned to a cpuset.
type Where struct {
	Lang  string
	Image string
	CPUs  string
	// Trusted is image.TrustedArg of the image's BenchImage.Trusted:
	// the digests the sampler checks before anything privileged ("": none).
	Trusted string
}

// Started is one sampler container a Pool started, and what starting it cost.
type Started struct {
	Lang        string `json:"lang"`
	CPUs        string `json:"cpus"`
	ContainerID string `json:"container_id"`
	StartNs     int64  `json:"start_ns"`
}

// Pool keeps one sampler container per (language, image, cpuset) for a
// run, so a container starts once per language and cpuset rather than once
// per bench, and replaces one that died. Jobs for different Wheres may run
// at once (the count lane's, one per CPU); two jobs for the same Where must
// not, as a Server answers one job at a time.
type Pool struct {
	mu      sync.Mutex // guards servers and started
	eng     Engine
	priv    engine.Privilege
	runID   string
	mem     int64
	log     io.Writer
	servers map[Where]*Server
	pairs   map[PairWhere]*pairServers
	started []Started
}

// NewPool returns an empty pool whose containers get priv, belong to runID
// and have room for samples of mem bytes.
func NewPool(eng Engine, priv engine.Privilege, runID string, mem int64, log io.Writer) *Pool {
	return &Pool{eng: eng, priv: priv, runID: runID, mem: mem, log: log, servers: map[Where]*Server{}, pairs: map[PairWhere]*pairServers{}}
}

// Sample runs j in the container for w, starting it first if need be. A
// container that cannot start is the job's run_failed, with the reason.
func (p *Pool) Sample(ctx context.Context, w Where, j Job) Outcome {
	s, err := p.get(ctx, w)
	if err != nil {
		return fail(Outcome{CPUsAsked: w.CPUs}, outcome.RunFailed, err.Error())
	}
	return s.Run(ctx, j)
}

func (p *Pool) get(ctx context.Context, w Where) (*Server, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if s := p.servers[w]; s != nil {
		if s.Dead() == nil {
			return s, nil
		}
		s.Close()
		delete(p.servers, w)
	}
	s, err := p.start(ctx, w, ServerSpec{MemLimit: p.mem}, "")
	if err != nil {
		return nil, err
	}
	p.servers[w] = s
	return s, nil
}

// start starts the server of w with what sp adds, and lists it (p.mu held).
func (p *Pool) start(ctx context.Context, w Where, sp ServerSpec, role string) (*Server, error) {
	sp.Image, sp.CPUs, sp.Privilege, sp.RunID, sp.Lang, sp.Trusted = w.Image, w.CPUs, p.priv, p.runID, w.Lang, w.Trusted
	s, err := StartServer(ctx, p.eng, sp)
	if err != nil {
		what := "sampler"
		if role != "" {
			what = "xproc " + role + "'s sampler"
		}
		return nil, fmt.Errorf("starting the %s %s container on cpus %s: %w", w.Lang, what, w.CPUs, err)
	}
	p.started = append(p.started, Started{Lang: w.Lang, CPUs: w.CPUs, ContainerID: s.ContainerID(), StartNs: s.StartNs})
	return s, nil
}

// Started lists every container the pool started, in order.
func (p *Pool) Started() []Started {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]Started(nil), p.started...)
}

// Close ends every container of the pool and removes it.
func (p *Pool) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for w, s := range p.servers {
		if err := s.Close(); err != nil {
			fmt.Fprintf(p.log, "warning: %v\n", err)
		}
		delete(p.servers, w)
	}
	for w, ps := range p.pairs {
		ps.close(p.log)
		delete(p.pairs, w)
	}
}
