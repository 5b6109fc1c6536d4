package harness

import (
	"context"
	"fmt"
	"io"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/runner"
)

// pool keeps one sampler container per (language, cpuset) for the run, so a
// container starts once per language and cpuset rather than once per bench.
type pool struct {
	eng     *engine.Engine
	priv    engine.Privilege
	runID   string
	mem     int64
	log     io.Writer
	servers map[string]*runner.Server
	started []report.SamplerContainer
}

func newPool(eng *engine.Engine, priv engine.Privilege, runID string, mem int64, log io.Writer) *pool {
	return &pool{eng: eng, priv: priv, runID: runID, mem: mem, log: log, servers: map[string]*runner.Server{}}
}

func (p *pool) get(ctx context.Context, lang, image, cpus string) (*runner.Server, error) {
	key := lang + "|" + image + "|" + cpus
	if s := p.servers[key]; s != nil {
		if s.Dead() == nil {
			return s, nil
		}
		s.Close()
		delete(p.servers, key)
	}
	s, err := runner.StartServer(ctx, p.eng, runner.ServerSpec{Image: image, CPUs: cpus, Privilege: p.priv, RunID: p.runID, MemLimit: p.mem, Lang: lang})
	if err != nil {
		return nil, fmt.Errorf("starting the %s sampler container on cpus %s: %w", lang, cpus, err)
	}
	p.servers[key] = s
	p.started = append(p.started, report.SamplerContainer{Lang: lang, CPUs: cpus, ContainerID: s.ContainerID(), StartNs: s.StartNs})
	return s, nil
}

func (p *pool) closeAll() {
	for k, s := range p.servers {
		if err := s.Close(); err != nil {
			fmt.Fprintf(p.log, "warning: %v\n", err)
		}
		delete(p.servers, k)
	}
}
