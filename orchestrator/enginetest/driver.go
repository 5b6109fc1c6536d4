package enginetest

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// The fake is a whole engine.Driver, registered as "fake": importing this
// package (tests only: cmd/halebench never does) makes engine.Open(ctx,
// "fake") give a new, empty one.
var _ engine.Driver = (*Engine)(nil)

func init() {
	engine.Register("fake", func(context.Context) (engine.Driver, error) { return &Engine{}, nil })
}

// Info describes a fake host: 4 logical CPUs of a "Fake CPU", cgroup v1.
func (f *Engine) Info(context.Context) (engine.HostInfo, error) {
	return engine.HostInfo{EngineVersion: "fake", EngineHost: "fake://", OS: "fake", Kernel: "fake", Arch: "amd64",
		CPUModel: "Fake CPU", LogicalCPUs: 4, MemoryBytes: 8 << 30, CgroupVersion: "v1", CgroupDriver: "cgroupfs", Hostname: "fake"}, nil
}

// Close hangs up: nothing to do.
func (f *Engine) Close() error { return nil }

// Builder is the fake itself: its Build stores images in its store.
func (f *Engine) Builder(context.Context) (engine.Builder, error) { return builder{f}, nil }

type builder struct{ *Engine }

func (builder) Close() error { return nil }

// ProbePrivilege grants the first candidate, as an engine that refuses
// nothing would; the image must be in the store.
func (f *Engine) ProbePrivilege(_ context.Context, img, _ string, unprivileged bool) (engine.Privilege, []engine.Attempt, error) {
	if im, _, _ := f.Image(context.Background(), img); im.ID == "" {
		return engine.Privilege{}, nil, fmt.Errorf("no container could start from %s: %w", img, notFound{img})
	}
	return engine.Candidates(unprivileged)[0], nil, nil
}

// Command runs nothing and prints nothing.
func (f *Engine) Command(_ context.Context, img, _ string, argv []string) (string, error) {
	if im, _, _ := f.Image(context.Background(), img); im.ID == "" {
		return "", fmt.Errorf("%s in %s: %w", strings.Join(argv, " "), img, notFound{img})
	}
	return "", nil
}

// Import stores an empty image under ref (the lock's image).
func (f *Engine) Import(_ context.Context, rootfs io.Reader, ref string, _ []string) error {
	io.Copy(io.Discard, rootfs)
	f.Add(ref, nil, 0)
	return nil
}

// Pull fails: the fake reaches no registry.
func (f *Engine) Pull(_ context.Context, ref string) error {
	return fmt.Errorf("pulling %s: the fake engine reaches no registry", ref)
}

// Save fails: the fake holds no image archives.
func (f *Engine) Save(_ context.Context, refs ...string) (io.ReadCloser, error) {
	return nil, fmt.Errorf("saving images %v: the fake engine holds no layers", refs)
}

// Load fails: the fake holds no image archives.
func (f *Engine) Load(context.Context, io.Reader) error {
	return fmt.Errorf("loading an image archive: the fake engine holds no layers")
}
