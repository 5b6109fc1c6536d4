package lifecycle

import (
	"context"
	"io"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/prune"
	"github.com/hale-lang/halebench/orchestrator/runner"
)

// Locker is what the lock needs of the engine: a container of a fixed
// name that the engine makes at most once, its labels (who holds it), the
// sweep of what killed runs left, and the empty image the lock is made of.
// Its Create is the one the session hands on to the runner and xproc, so
// its container is theirs (runner.Container): the lock removes it.
type Locker interface {
	Create(ctx context.Context, s engine.Spec) (runner.Container, error)
	ContainerLabels(ctx context.Context, id string) (map[string]string, error)
	RemoveOrphans(ctx context.Context) (engine.Sweep, error)
	Image(ctx context.Context, ref string) (engine.Image, bool, error)
	Import(ctx context.Context, rootfs io.Reader, ref string, changes []string) error
}

// Engine is what a session needs of its engine and hands on to the verbs
// it serves: the lock, the images (imagebuild's, prune's), the host, a
// builder, the privilege probe and the run's containers. The caller dials
// it and hangs it up (cmd/halebench wires the driver in); package
// engine/docker binds the Docker driver to it, and docs/driver.md says
// what another driver would implement.
type Engine interface {
	Locker
	imagebuild.Engine
	prune.Engine
	Info(ctx context.Context) (engine.HostInfo, error)
	BuildKit(ctx context.Context) (BuildKit, error)
	ProbePrivilege(ctx context.Context, img, runID string, unprivileged bool) (engine.Privilege, []engine.Attempt, error)
	RemoveRun(ctx context.Context, runID string) (int, error)
}

// BuildKit is a builder the session holds from Open to Close: what
// imagebuild solves with, and its hang-up.
type BuildKit interface {
	imagebuild.Solver
	Close() error
}
