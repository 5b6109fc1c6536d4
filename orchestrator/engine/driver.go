package engine

import (
	"context"
	"errors"
	"io"
	"time"
)

// Driver is an engine as halebench uses it: a host to describe, what it
// can do (Features), containers to run, an image store, a builder, and the
// labelled containers of runs to find and remove. It is the whole contract
// a driver meets (docs/driver.md says what each method has to mean
// whatever the backend; enginetest.Conformance checks it) and what a
// session holds; the packages that call only a few of its methods declare
// those as interfaces of their own, each asserted to be met by every
// Driver.
type Driver interface {
	// Info describes where the containers run.
	Info(ctx context.Context) (HostInfo, error)
	// Features says what this engine can do that callers branch on
	// (Features.Need); it answers the same while the driver is connected.
	Features(ctx context.Context) (Features, error)
	// Close hangs up.
	Close() error

	// Create makes a container of s, not started.
	Create(ctx context.Context, s Spec) (Container, error)
	// Builder dials the engine's builder; the caller closes it.
	Builder(ctx context.Context) (Builder, error)
	// ProbePrivilege finds the most privilege a container of img may have
	// (Candidates, most first), with the refusals met on the way.
	ProbePrivilege(ctx context.Context, img, runID string, unprivileged bool) (Privilege, []Attempt, error)
	// Command runs argv in a throw-away container of img and returns its
	// stdout (versions, package lists).
	Command(ctx context.Context, img, runID string, argv []string) (string, error)

	// The image store.
	Image(ctx context.Context, ref string) (Image, bool, error)
	Import(ctx context.Context, rootfs io.Reader, ref string, changes []string) error
	Pull(ctx context.Context, ref string) error
	Save(ctx context.Context, refs ...string) (io.ReadCloser, error)
	Load(ctx context.Context, archive io.Reader) error
	RemoveImage(ctx context.Context, ref string) error
	Tag(ctx context.Context, src, dst string) error
	StoredImages(ctx context.Context) ([]StoredImage, error)
	ImageMadeAt(ctx context.Context, ref string) (time.Time, error)
	BuildCacheUsage(ctx context.Context) (records int, size, reclaimable int64, err error)
	PruneBuildCache(ctx context.Context, keep int64) (int64, error)

	// The labelled containers of halebench's runs: the lock's holder, what
	// a run leaves, what killed runs left.
	ContainerLabels(ctx context.Context, id string) (map[string]string, error)
	// Leftovers lists the IDs of halebench's containers; runID "" lists all.
	Leftovers(ctx context.Context, runID string) ([]string, error)
	// RemoveRun removes every container of one run.
	RemoveRun(ctx context.Context, runID string) (int, error)
	// RemoveOrphans removes the containers whose owner is provably gone
	// (OwnerGone) and lists those it cannot judge.
	RemoveOrphans(ctx context.Context) (Sweep, error)
	// RemoveOwned removes every container this process made (the last
	// resort of a run that must exit now).
	RemoveOwned(ctx context.Context) (int, error)
}

// Container is one created container. Attach before Start gives its stdin
// and stdout as streams (the sampler reads its jobs from stdin); Wait
// returns its exit code, Stderr the tail of its stderr; Kill and Remove end
// it.
type Container interface {
	Attach(ctx context.Context) (io.WriteCloser, io.Reader, error)
	Start(ctx context.Context) error
	Wait(ctx context.Context) (int64, error)
	Kill(ctx context.Context) error
	Remove() error
	Stderr() string
	Identity() string
}

// Builder runs Dockerfile builds (Build) until closed.
type Builder interface {
	Build(ctx context.Context, b Build) (Built, error)
	Close() error
}

// ErrImageVolume marks a refusal to start a container of an image that
// declares a VOLUME: a driver fills such a volume from the image's
// content, device nodes included (docs/security.md).
var ErrImageVolume = errors.New("an image with a VOLUME runs no container")
