package harness

import (
	"context"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/session"
)

// OnEngine makes a prepared run on eng (dialled by the caller) inside one
// session: orphans swept, host read, BuildKit dialled, and on
// the way out the sampler containers removed and the lock released. Plan is checked before: nothing here reads the user's input.
func OnEngine(ctx context.Context, eng engine.Driver, p *Plan) (*Result, error) {
	s, err := session.Open(ctx, session.Options{
		Kind: "run", Engine: eng, Images: p.Images, Unprivileged: p.Unprivileged, MemLimit: p.MemLimit, Log: p.Log,
	})
	if err != nil {
		return nil, err
	}
	defer s.Close()
	ready := func(ctx context.Context) (Engine, error) {
		sp, err := s.Ready(ctx)
		if err != nil {
			return nil, err
		}
		return sp, nil
	}
	return Run(ctx, Env{RunID: s.RunID, Host: s.Host, Images: s.Builder, Ready: ready, Platform: session.PlatformOf(s.Host, s.Builder.Arch())}, p)
}
