package docker

import (
	"context"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/imagearchive"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/lifecycle"
	"github.com/hale-lang/halebench/orchestrator/prune"
	"github.com/hale-lang/halebench/orchestrator/runner"
)

// Driver is the Docker driver as its users see it. Every method but
// Create and BuildKit is *engine.Engine's own.
type Driver struct{ *engine.Engine }

// Each user's interface, met by the driver: the ones whose methods return
// only the driver's plain data (Spec, Image, Built, …) by *engine.Engine
// and *engine.BuildKit themselves, the others by Driver.
var (
	_ imagebuild.Engine   = (*engine.Engine)(nil)
	_ imagebuild.Solver   = (*engine.BuildKit)(nil)
	_ imagearchive.Engine = (*engine.Engine)(nil)
	_ prune.Engine        = (*engine.Engine)(nil)
	_ runner.Container    = (*engine.Container)(nil)
	_ lifecycle.BuildKit  = (*engine.BuildKit)(nil)
	_ runner.Engine       = Driver{}
	_ lifecycle.Engine    = Driver{}
)

// Bind is e as its users' interfaces.
func Bind(e *engine.Engine) Driver { return Driver{e} }

// Create makes a container (not started).
func (d Driver) Create(ctx context.Context, s engine.Spec) (runner.Container, error) {
	c, err := d.Engine.Create(ctx, s)
	if err != nil {
		return nil, err // not a nil *engine.Container in a non-nil interface
	}
	return c, nil
}

// BuildKit dials the engine's builder.
func (d Driver) BuildKit(ctx context.Context) (lifecycle.BuildKit, error) {
	bk, err := d.Engine.BuildKit(ctx)
	if err != nil {
		return nil, err
	}
	return bk, nil
}
