package lifecycle

import (
	"context"
	"io"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/prune"
)

// Locker is what the lock needs of the engine: a container of a fixed
// name that the engine makes at most once, its labels (who holds it), the
// sweep of what killed runs left, and the empty image the lock is made of.
type Locker interface {
	Create(ctx context.Context, s engine.Spec) (*engine.Container, error)
	ContainerLabels(ctx context.Context, id string) (map[string]string, error)
	RemoveOrphans(ctx context.Context) (engine.Sweep, error)
	Image(ctx context.Context, ref string) (engine.Image, bool, error)
	Import(ctx context.Context, rootfs io.Reader, ref string, changes []string) error
}

// Engine is what a session needs of its engine and hands on to the verbs
// it serves: the lock, the images (imagebuild's, prune's), the host, a
// builder, the privilege probe and the run's containers. Docker
// (*engine.Engine) is the one driver; docs/driver.md says what another
// would implement.
type Engine interface {
	Locker
	imagebuild.Engine
	prune.Engine
	Info(ctx context.Context) (engine.HostInfo, error)
	BuildKit(ctx context.Context) (*engine.BuildKit, error)
	ProbePrivilege(ctx context.Context, img, runID string, unprivileged bool) (engine.Privilege, []engine.Attempt, error)
	RemoveRun(ctx context.Context, runID string) (int, error)
	Close() error
}

var _ Engine = (*engine.Engine)(nil)
