package enginetest

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// The fake is a whole engine.Driver, registered as "fake": importing this
// package (tests, and cmd/halebench only when built with -tags
// halebench_fake) makes engine.Open(ctx,
// "fake") give a new, empty one.
var _ engine.Driver = (*Engine)(nil)

func init() {
	engine.Register("fake", func(context.Context) (engine.Driver, error) { return &Engine{}, nil })
}

// Info describes a fake host: 4 logical CPUs of a "Fake CPU", cgroup v1;
// every name a report records of the engine (version, API, host, OS,
// kernel, hostname) says "fake", so no report of it passes for a real one.
func (f *Engine) Info(context.Context) (engine.HostInfo, error) {
	return engine.HostInfo{EngineVersion: "fake", EngineAPI: "fake", EngineHost: "fake://", OS: "fake", Kernel: "fake", Arch: "amd64",
		CPUModel: "Fake CPU", LogicalCPUs: 4, MemoryBytes: 8 << 30, CgroupVersion: "v1", CgroupDriver: "cgroupfs", Hostname: "fake"}, nil
}

// Features are the fake's: a builder, a build cache, image archives
// (Save and Load speak docker save's format over the layers it holds),
// privilege granted and /dev/shm shared between containers (ShmOf joins a
// running ShareShm container, as Docker's IPC namespaces do). It runs no
// program but its sampler, so nothing is pinned or limited.
func (f *Engine) Features(context.Context) (engine.Features, error) {
	ft := engine.Features{Driver: "fake", API: "fake", Cgroup: "v1", Platforms: []string{"linux/amd64"}}
	for _, feat := range []engine.Feature{engine.FeatPrivileged, engine.FeatSharedIPC, engine.FeatBuildKit, engine.FeatArchives, engine.FeatBuildCache} {
		ft.With(feat, true, "")
	}
	for feat, why := range fakeLacks {
		ft.With(feat, false, why)
	}
	return ft, nil
}

// fakeLacks are the features the fake has not, and why.
var fakeLacks = map[engine.Feature]string{
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

// Import stores the root filesystem tar as the one layer of a new image
// under ref (the lock's empty image, the suite's probe). Of the changes it
// keeps ENV and VOLUME (which Create refuses); each import is a new image,
// as an engine stamps each with its time.
func (f *Engine) Import(_ context.Context, rootfs io.Reader, ref string, changes []string) error {
	layer, err := io.ReadAll(io.LimitReader(rootfs, maxLayer+1))
	if err == nil && len(layer) > maxLayer {
		err = fmt.Errorf("it is over the fake's %d MiB for a layer", maxLayer>>20)
	}
	if err == nil {
		err = checkTar(layer)
	}
	if err != nil {
		return fmt.Errorf("importing %s: the root filesystem: %w", ref, err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.ticks++
	c := configSpec{layers: []string{f.putLayer(layer)}, createdBy: fmt.Sprintf("imported as %s at tick %d", ref, f.ticks)}
	for _, ch := range changes {
		if v, ok := strings.CutPrefix(ch, "VOLUME "); ok {
			c.volumes = append(c.volumes, strings.Fields(v)...)
		}
		if v, ok := strings.CutPrefix(ch, "ENV "); ok {
			c.env = append(c.env, v)
		}
	}
	f.keep(newImage(c), ref)
	return nil
}

// Pull fails: the fake reaches no registry.
func (f *Engine) Pull(_ context.Context, ref string) error {
	return fmt.Errorf("pulling %s: the fake engine reaches no registry", ref)
}
