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

// Features are the fake's: a builder, a build cache, privilege granted and
// /dev/shm shared between containers (ShmOf joins a running ShareShm
// container, as Docker's IPC namespaces do). It runs no program but its
// sampler, so nothing is pinned or limited, and it holds no layers to
// archive (Save and Load refuse, naming the feature).
func (f *Engine) Features(context.Context) (engine.Features, error) {
	ft := engine.Features{Driver: "fake", API: "fake", Cgroup: "v1", Platforms: []string{"linux/amd64"}}
	for _, feat := range []engine.Feature{engine.FeatPrivileged, engine.FeatSharedIPC, engine.FeatBuildKit, engine.FeatBuildCache} {
		ft.With(feat, true, "")
	}
	for feat, why := range fakeLacks {
		ft.With(feat, false, why)
	}
	return ft, nil
}

// fakeLacks are the features the fake has not, and why.
var fakeLacks = map[engine.Feature]string{
	engine.FeatArchives:    "the fake holds no layers",
	engine.FeatPrograms:    "the fake runs no program but its sampler",
	engine.FeatPinning:     "the fake runs nothing to pin",
	engine.FeatMemoryLimit: "the fake runs nothing to limit",
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

// Import stores an empty image under ref (the lock's image); of the
// changes it keeps only VOLUME, which Create refuses.
func (f *Engine) Import(_ context.Context, rootfs io.Reader, ref string, changes []string) error {
	io.Copy(io.Discard, rootfs)
	f.mu.Lock()
	defer f.mu.Unlock()
	id := f.add(ref, nil, 0, ref)
	for _, c := range changes {
		if v, ok := strings.CutPrefix(c, "VOLUME "); ok {
			f.images[id].volumes = append(f.images[id].volumes, strings.Fields(v)...)
		}
	}
	return nil
}

// Pull fails: the fake reaches no registry.
func (f *Engine) Pull(_ context.Context, ref string) error {
	return fmt.Errorf("pulling %s: the fake engine reaches no registry", ref)
}

// Save fails: the fake holds no image archives (no FeatArchives).
func (f *Engine) Save(_ context.Context, refs ...string) (io.ReadCloser, error) {
	return nil, fmt.Errorf("saving images %v: %w", refs, engine.Unsupported("fake", engine.FeatArchives, fakeLacks[engine.FeatArchives]))
}

// Load fails: the fake holds no image archives (no FeatArchives).
func (f *Engine) Load(context.Context, io.Reader) error {
	return fmt.Errorf("loading an image archive: %w", engine.Unsupported("fake", engine.FeatArchives, fakeLacks[engine.FeatArchives]))
}
