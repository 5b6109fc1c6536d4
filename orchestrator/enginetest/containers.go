package enginetest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// container is one fake container: its program is the fake sampler when
// its command is the sampler's `serve`, else a command that exits 0 at
// once (a probe, the lock's never-started holder).
type container struct {
	f      *Engine
	id     string
	spec   engine.Spec
	labels map[string]string

	mu      sync.Mutex
	stdin   *io.PipeReader
	stdout  *io.PipeWriter
	started bool
	done    chan struct{}
	once    sync.Once
	code    int64
}

var _ engine.Container = (*container)(nil)

// Create makes a container of s, not started. As an engine does, it
// refuses an image the store does not hold, an image that declares a
// VOLUME (engine.ErrImageVolume) and a name already taken (the lock is
// such a name), and labels the container as its run's.
func (f *Engine) Create(_ context.Context, s engine.Spec) (engine.Container, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	im := f.lookup(s.Image)
	if im == nil {
		return nil, fmt.Errorf("creating container from %s: %w", s.Image, notFound{s.Image})
	}
	if len(im.volumes) > 0 {
		return nil, fmt.Errorf("image %s declares VOLUME %s: %w", s.Image, strings.Join(im.volumes, ", "), engine.ErrImageVolume)
	}
	if f.containers == nil {
		f.containers = map[string]*container{}
	}
	for _, c := range f.containers {
		if s.Name != "" && c.spec.Name == s.Name {
			return nil, fmt.Errorf("creating container from %s: the name %s is already in use", s.Image, s.Name)
		}
	}
	f.ticks++
	labels := map[string]string{engine.LabelApp: "1", engine.LabelRun: s.RunID, engine.LabelOwner: engine.Owner(), engine.LabelOwnerID: engine.SelfIdentity().String()}
	for k, v := range s.Labels {
		labels[k] = v
	}
	c := &container{f: f, id: fmt.Sprintf("fake%08x", f.ticks), spec: s, labels: labels, done: make(chan struct{})}
	f.containers[c.id] = c
	f.Created = append(f.Created, s)
	return c, nil
}

func (c *container) Identity() string { return c.id }

// Attach gives the container's stdin and stdout, before it starts.
func (c *container) Attach(context.Context) (io.WriteCloser, io.Reader, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.spec.Stdin || c.started || c.stdin != nil {
		return nil, nil, fmt.Errorf("attaching to container %s: attach once, before it starts, to a container made with Stdin", c.id)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c.stdin, c.stdout = inR, outW
	return inW, outR, nil
}

// Start runs the container's program in a goroutine. A container made
// with ShmOf starts only while the container it names runs and shares its
// /dev/shm (ShareShm), as Docker joins an IPC namespace.
func (c *container) Start(context.Context) error {
	if err := c.f.joinable(c.spec.ShmOf); err != nil {
		return fmt.Errorf("starting container %s: %w", c.id, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.started {
		return fmt.Errorf("starting container %s: it was started already", c.id)
	}
	c.started = true
	if !isSampler(c.spec.Cmd) || c.stdin == nil {
		// A program the fake does not run ends at once: an attached
		// client reads the end of its stdout, as of any program's.
		if c.stdout != nil {
			c.stdout.Close()
			c.stdin.Close()
		}
		c.exit(0)
		return nil
	}
	go func() {
		err := c.f.serve(c.id, c.spec, c.stdin, c.stdout)
		c.stdout.CloseWithError(err)
		c.exit(0)
	}()
	return nil
}

// joinable is nil when id ("": none) names a running container that
// shares its /dev/shm.
func (f *Engine) joinable(id string) error {
	if id == "" {
		return nil
	}
	f.mu.Lock()
	donor := f.containers[id]
	f.mu.Unlock()
	if donor == nil {
		return engine.NotFound(fmt.Errorf("no container %s to share /dev/shm with", id))
	}
	if !donor.spec.ShareShm {
		return fmt.Errorf("container %s does not share its /dev/shm (made without ShareShm)", id)
	}
	donor.mu.Lock()
	defer donor.mu.Unlock()
	select {
	case <-donor.done:
		return fmt.Errorf("container %s, whose /dev/shm this one would use, is not running", id)
	default:
	}
	if !donor.started {
		return fmt.Errorf("container %s, whose /dev/shm this one would use, is not running", id)
	}
	return nil
}

// exit ends the container once with code.
func (c *container) exit(code int64) {
	c.once.Do(func() {
		c.code = code
		close(c.done)
	})
}

// Wait blocks until the container's program ends.
func (c *container) Wait(ctx context.Context) (int64, error) {
	select {
	case <-c.done:
		return c.code, nil
	case <-ctx.Done():
		return -1, ctx.Err()
	}
}

// Kill ends the program at once: its channel closes, its code is 137.
func (c *container) Kill(context.Context) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stdin != nil {
		c.stdin.CloseWithError(errors.New("killed"))
		c.stdout.CloseWithError(errors.New("killed"))
	}
	c.exit(137)
	return nil
}

// Remove kills the container and forgets it; removing it twice is no error.
func (c *container) Remove() error {
	c.Kill(context.Background())
	c.f.mu.Lock()
	defer c.f.mu.Unlock()
	delete(c.f.containers, c.id)
	return nil
}

// Stderr is empty: the fake sampler says nothing there.
func (c *container) Stderr() string { return "" }

// ContainerLabels returns a container's labels, by ID or name.
func (f *Engine) ContainerLabels(_ context.Context, id string) (map[string]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.containers {
		if c.id == id || c.spec.Name == id {
			return c.labels, nil
		}
	}
	return nil, engine.NotFound(fmt.Errorf("no such container: %s", id))
}

// Leftovers lists the containers of runID ("" all), by ID.
func (f *Engine) Leftovers(_ context.Context, runID string) ([]string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.matching(func(c *container) bool { return runID == "" || c.labels[engine.LabelRun] == runID }), nil
}

// matching lists the IDs of the containers keep says yes to (f.mu held).
func (f *Engine) matching(keep func(*container) bool) []string {
	ids := []string{}
	for id, c := range f.containers {
		if keep(c) {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids
}

// removeIf removes the containers keep says yes to.
func (f *Engine) removeIf(keep func(*container) bool) int {
	f.mu.Lock()
	var gone []*container
	for _, id := range f.matching(keep) {
		gone = append(gone, f.containers[id])
	}
	f.mu.Unlock()
	for _, c := range gone {
		c.Remove()
	}
	return len(gone)
}

// RemoveRun removes every container of runID.
func (f *Engine) RemoveRun(_ context.Context, runID string) (int, error) {
	return f.removeIf(func(c *container) bool { return c.labels[engine.LabelRun] == runID }), nil
}

// RemoveOwned removes every container this process made.
func (f *Engine) RemoveOwned(context.Context) (int, error) {
	me := engine.SelfIdentity().String()
	return f.removeIf(func(c *container) bool { return c.labels[engine.LabelOwnerID] == me }), nil
}

// RemoveOrphans removes the containers whose owner is provably gone, as
// engine.OwnerGone judges; no fake container is "running" for it.
func (f *Engine) RemoveOrphans(context.Context) (engine.Sweep, error) {
	var sw engine.Sweep
	sw.Removed = f.removeIf(func(c *container) bool {
		gone, why := engine.OwnerGone(c.labels, map[string]bool{})
		if !gone && why != "" {
			sw.Left = append(sw.Left, c.id+": "+why)
		}
		return gone
	})
	return sw, nil
}
