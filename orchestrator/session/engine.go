package session

import (
	"context"
	"io"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// Locker is what the lock needs of the engine: a container of a fixed
// name that the engine makes at most once, its labels (who holds it), the
// sweep of what killed runs left, and the empty image the lock is made of.
// Its Create is the one the session hands on to the runner and xproc, so
// its container is theirs: the lock removes it. Every engine.Driver is one.
type Locker interface {
	Create(ctx context.Context, s engine.Spec) (engine.Container, error)
	ContainerLabels(ctx context.Context, id string) (map[string]string, error)
	RemoveOrphans(ctx context.Context) (engine.Sweep, error)
	Image(ctx context.Context, ref string) (engine.Image, bool, error)
	Import(ctx context.Context, rootfs io.Reader, ref string, changes []string) error
}

// Every driver is a Locker.
var _ Locker = engine.Driver(nil)
