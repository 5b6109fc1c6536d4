package harness

import (
	"context"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/lifecycle"
)

// OnEngine makes a prepared run on a Docker Engine, inside one lifecycle
// session: orphans swept, host read, BuildKit dialled, and on the way out
// the sampler containers removed and the CPU lock released.
func OnEngine(ctx context.Context, eng *engine.Engine, p *Plan) (*Result, error) {
	s, err := lifecycle.Open(ctx, eng, lifecycle.Options{
		Kind: "run", Images: p.Images, Unprivileged: p.Unprivileged, MemLimit: p.MemLimit, Log: p.Log,
	})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return Run(ctx, Env{RunID: s.RunID, Host: s.Host, Images: s.Builder, Engine: s}, p)
}
