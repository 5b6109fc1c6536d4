package docker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/pkg/stdcopy"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

func configs(s engine.Spec) (*container.Config, *container.HostConfig) {
	labels := map[string]string{engine.LabelApp: "1", engine.LabelRun: s.RunID, engine.LabelOwner: engine.Owner(), engine.LabelOwnerID: engine.SelfIdentity().String()}
	for k, v := range s.Labels {
		labels[k] = v
	}
	// The image's entrypoint and health check are never used: Cmd is the
	// whole command line, and a toolchain image someone else made (ab
	// --b-image) cannot put a program of its own in front of it, or beside
	// it as a periodic health check, in a privileged container.
	cfg := &container.Config{
		Image:           s.Image,
		Entrypoint:      []string{},
		Healthcheck:     &container.HealthConfig{Test: []string{"NONE"}},
		Cmd:             s.Cmd,
		Env:             s.Env,
		Labels:          labels,
		NetworkDisabled: true,
		WorkingDir:      "/tmp",
		OpenStdin:       s.Stdin,
		AttachStdin:     s.Stdin,
		StdinOnce:       s.Stdin,
	}
	pids := s.PidsLimit
	if pids == 0 {
		pids = 4096
	}
	hc := &container.HostConfig{
		NetworkMode:    "none",
		ReadonlyRootfs: !s.Writable,
		Tmpfs: map[string]string{
			"/tmp": "rw,exec,nosuid,size=1g",
			"/run": "rw,nosuid,size=16m",
		},
		CgroupnsMode: container.CgroupnsModePrivate,
		// A bench that floods stdout cannot fill the engine's disk.
		LogConfig: container.LogConfig{Type: "json-file", Config: map[string]string{"max-size": "16m", "max-file": "1"}},
		IpcMode:   ipcMode(s),
		ShmSize:   s.ShmSize,
		Resources: container.Resources{
			CpusetCpus: s.CPUs,
			Memory:     s.Memory,
			MemorySwap: s.Memory, // no swap beyond the limit: an OOM is an OOM
			PidsLimit:  &pids,
		},
	}
	if s.Memory == 0 {
		hc.Resources.MemorySwap = 0
	}
	apply(s.Privilege, hc)
	return cfg, hc
}

// ipcMode is ShareShm and ShmOf as Docker says them: an IPC namespace
// shared, or joined, holds the one /dev/shm.
func ipcMode(s engine.Spec) container.IpcMode {
	switch {
	case s.ShmOf != "":
		return container.IpcMode("container:" + s.ShmOf)
	case s.ShareShm:
		return "shareable"
	}
	return ""
}

// Container is a created run container.
type Container struct {
	ID     string
	e      *Engine
	stderr *tailWriter
}

var _ engine.Container = (*Container)(nil)

// Create makes the container without starting it.
func (e *Engine) Create(ctx context.Context, s engine.Spec) (engine.Container, error) {
	c, err := e.create(ctx, s)
	if err != nil {
		return nil, err // not a nil *Container in a non-nil interface
	}
	return c, nil
}

func (e *Engine) create(ctx context.Context, s engine.Spec) (*Container, error) {
	if err := e.noVolumes(ctx, s.Image); err != nil {
		return nil, err
	}
	cfg, hc := configs(s)
	resp, err := e.cli.ContainerCreate(ctx, cfg, hc, nil, nil, s.Name)
	if isNotFound(err) {
		return nil, engine.NotFound(fmt.Errorf("creating container from %s: %w", s.Image, err))
	}
	if err != nil {
		return nil, fmt.Errorf("creating container from %s: %w", s.Image, err)
	}
	return &Container{ID: resp.ID, e: e}, nil
}

// noVolumes refuses an image that declares a VOLUME: the engine fills an
// anonymous volume from the image's content at that path, device nodes
// included, and mounts it in the container — under /dev, where a sampler
// would take it for the engine's own — so a 0666 node an image carries
// reaches a bench whatever the privilege mode. No image halebench makes
// declares one; a given one (--base-image, --hale-image, a side's image)
// that does, or one built FROM it, runs no container, named with its
// volumes.
func (e *Engine) noVolumes(ctx context.Context, ref string) error {
	ins, err := e.cli.ImageInspect(ctx, ref)
	if err != nil {
		if isNotFound(err) {
			return nil // ContainerCreate says so
		}
		return fmt.Errorf("inspecting image %s: %w", ref, err)
	}
	if ins.Config == nil || len(ins.Config.Volumes) == 0 {
		return nil
	}
	vols := make([]string, 0, len(ins.Config.Volumes))
	for v := range ins.Config.Volumes {
		vols = append(vols, v)
	}
	sort.Strings(vols)
	return volumeError(fmt.Sprintf("image %s declares VOLUME %s: the engine would fill a volume there from the image's content, device nodes included, and mount it in the container, so halebench runs no container of it in any privilege mode (rebuild the image, and any given image it is built FROM, without VOLUME)",
		ref, strings.Join(vols, ", ")))
}

// volumeError is noVolumes' refusal: errors.Is(err, engine.ErrImageVolume).
type volumeError string

func (e volumeError) Error() string        { return string(e) }
func (e volumeError) Is(target error) bool { return target == engine.ErrImageVolume }

// Identity is the container's id (for interfaces that cannot name a field).
func (c *Container) Identity() string { return c.ID }

// Start starts the container.
func (c *Container) Start(ctx context.Context) error {
	if err := c.e.cli.ContainerStart(ctx, c.ID, container.StartOptions{}); err != nil {
		return fmt.Errorf("starting container %s: %w", termtext.ShortID(c.ID), err)
	}
	return nil
}

// Wait blocks until the container exits and returns its exit code.
func (c *Container) Wait(ctx context.Context) (int64, error) {
	okc, errc := c.e.cli.ContainerWait(ctx, c.ID, container.WaitConditionNotRunning)
	select {
	case r := <-okc:
		if r.Error != nil && r.Error.Message != "" {
			return r.StatusCode, errors.New(r.Error.Message)
		}
		return r.StatusCode, nil
	case err := <-errc:
		return -1, fmt.Errorf("waiting for container %s: %w", termtext.ShortID(c.ID), err)
	}
}

// Output returns what the container wrote, stdout and stderr apart. Only
// the last limit bytes of each are kept.
func (c *Container) Output(ctx context.Context, limit int) (stdout, stderr string, err error) {
	rc, err := c.e.cli.ContainerLogs(ctx, c.ID, container.LogsOptions{ShowStdout: true, ShowStderr: true})
	if err != nil {
		return "", "", fmt.Errorf("reading output of %s: %w", termtext.ShortID(c.ID), err)
	}
	defer rc.Close()
	var o, e tailWriter
	o.max, e.max = limit, limit
	if _, err := stdcopy.StdCopy(&o, &e, rc); err != nil {
		return "", "", fmt.Errorf("reading output of %s: %w", termtext.ShortID(c.ID), err)
	}
	return string(o.b), string(e.b), nil
}

// Kill sends SIGKILL.
func (c *Container) Kill(ctx context.Context) error {
	return c.e.cli.ContainerKill(ctx, c.ID, "KILL")
}

// Remove removes the container, running or not. It uses its own deadline so
// that it still works after the run's context was cancelled.
func (c *Container) Remove() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := c.e.cli.ContainerRemove(ctx, c.ID, container.RemoveOptions{Force: true, RemoveVolumes: true})
	if err != nil && !isNotFound(err) && !strings.Contains(err.Error(), "already in progress") {
		return fmt.Errorf("removing container %s: %w", termtext.ShortID(c.ID), err)
	}
	return nil
}

// Leftovers lists containers carrying halebench's label; runID "" lists all.
func (e *Engine) Leftovers(ctx context.Context, runID string) ([]string, error) {
	f := filters.NewArgs(filters.Arg("label", engine.LabelApp))
	if runID != "" {
		f.Add("label", engine.LabelRun+"="+runID)
	}
	list, err := e.cli.ContainerList(ctx, container.ListOptions{All: true, Filters: f})
	if err != nil {
		return nil, fmt.Errorf("listing halebench containers: %w", err)
	}
	ids := make([]string, 0, len(list))
	for _, c := range list {
		ids = append(ids, c.ID)
	}
	return ids, nil
}

// ContainerLabels returns the labels of a container (for tests and reports).
func (e *Engine) ContainerLabels(ctx context.Context, id string) (map[string]string, error) {
	ins, err := e.cli.ContainerInspect(ctx, id)
	if isNotFound(err) {
		return nil, engine.NotFound(err)
	}
	if err != nil {
		return nil, err
	}
	return ins.Config.Labels, nil
}

type tailWriter struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailWriter) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

// Sandbox is what the engine says of a container's confinement (for the
// report and the tests).
type Sandbox struct {
	NetworkMode    string
	ReadonlyRootfs bool
	Tmpfs          map[string]string
	PidsLimit      int64
	Mounts         int
	Privileged     bool
	CapAdd         []string
	CapDrop        []string
	CpusetCpus     string
	Labels         map[string]string
}

// Sandbox inspects a container.
func (e *Engine) Sandbox(ctx context.Context, id string) (Sandbox, error) {
	ins, err := e.cli.ContainerInspect(ctx, id)
	if err != nil {
		return Sandbox{}, err
	}
	hc := ins.HostConfig
	s := Sandbox{
		NetworkMode: string(hc.NetworkMode), ReadonlyRootfs: hc.ReadonlyRootfs, Tmpfs: hc.Tmpfs,
		Mounts: len(ins.Mounts) + len(hc.Binds), Privileged: hc.Privileged,
		CapAdd: hc.CapAdd, CapDrop: hc.CapDrop, CpusetCpus: hc.CpusetCpus, Labels: ins.Config.Labels,
	}
	if hc.PidsLimit != nil {
		s.PidsLimit = *hc.PidsLimit
	}
	return s, nil
}

// Attach connects to a container made with Spec.Stdin, before it starts:
// what is written to stdin reaches the container's stdin (closing it ends
// that stdin), and stdout yields the container's stdout. Its stderr is kept,
// the last 8 KiB, for Stderr.
func (c *Container) Attach(ctx context.Context) (io.WriteCloser, io.Reader, error) {
	hr, err := c.e.cli.ContainerAttach(ctx, c.ID, container.AttachOptions{Stream: true, Stdin: true, Stdout: true, Stderr: true})
	if err != nil {
		return nil, nil, fmt.Errorf("attaching to container %s: %w", termtext.ShortID(c.ID), err)
	}
	pr, pw := io.Pipe()
	c.stderr = &tailWriter{max: 8 << 10}
	go func() {
		_, err := stdcopy.StdCopy(pw, c.stderr, hr.Reader)
		pw.CloseWithError(err)
		hr.Close()
	}()
	return stdinCloser{hr.Conn, hr.CloseWrite}, pr, nil
}

// Stderr is the tail of what an attached container wrote on stderr.
func (c *Container) Stderr() string {
	if c.stderr == nil {
		return ""
	}
	c.stderr.mu.Lock()
	defer c.stderr.mu.Unlock()
	return string(c.stderr.b)
}

type stdinCloser struct {
	io.Writer
	closeWrite func() error
}

func (s stdinCloser) Close() error { return s.closeWrite() }

// apply sets p on a container's host config.
func apply(p engine.Privilege, hc *container.HostConfig) {
	unconfined := []string{"seccomp=unconfined", "apparmor=unconfined"}
	switch p.Mode {
	case engine.ModePrivileged:
		hc.Privileged = true
		hc.SecurityOpt = unconfined
	case engine.ModeAllCaps:
		hc.CapAdd = []string{"ALL"}
		hc.CapDrop = p.CapDrop
		hc.SecurityOpt = unconfined
	case engine.ModeSysAdmin:
		hc.CapAdd = []string{"SYS_ADMIN"}
		hc.SecurityOpt = unconfined
	default:
		hc.SecurityOpt = []string{"no-new-privileges"}
	}
}

// RemoveOrphans removes the halebench containers whose owner is provably
// gone: what a run killed with SIGKILL left. Containers of live runs are
// never removed, nor those whose owner cannot be judged from here; those
// are listed in Sweep.Left for the caller to say.
func (e *Engine) RemoveOrphans(ctx context.Context) (engine.Sweep, error) {
	var sw engine.Sweep
	f := filters.NewArgs(filters.Arg("label", engine.LabelApp))
	list, err := e.cli.ContainerList(ctx, container.ListOptions{All: true, Filters: f})
	if err != nil {
		return sw, fmt.Errorf("listing halebench containers: %w", err)
	}
	running := map[string]bool{}
	all, err := e.cli.ContainerList(ctx, container.ListOptions{})
	if err != nil {
		return sw, fmt.Errorf("listing running containers: %w", err)
	}
	for _, c := range all {
		if len(c.ID) >= 12 {
			running[c.ID[:12]] = true
		}
	}
	for _, c := range list {
		gone, why := engine.OwnerGone(c.Labels, running)
		if !gone {
			if why != "" {
				sw.Left = append(sw.Left, termtext.ShortID(c.ID)+": "+why)
			}
			continue
		}
		if err := (&Container{ID: c.ID, e: e}).Remove(); err != nil {
			return sw, err
		}
		sw.Removed++
	}
	return sw, nil
}

// RemoveOwned removes every container this process made (the last resort
// of a run that must exit now).
func (e *Engine) RemoveOwned(ctx context.Context) (int, error) {
	return e.removeLabelled(ctx, engine.LabelOwnerID+"="+engine.SelfIdentity().String())
}

// RemoveRun removes every container of one run, whatever state it is in:
// what a run does last, so that a container the engine made while the run
// was being interrupted (its create answered after the cancel) is not left.
func (e *Engine) RemoveRun(ctx context.Context, runID string) (int, error) {
	return e.removeLabelled(ctx, engine.LabelRun+"="+runID)
}

func (e *Engine) removeLabelled(ctx context.Context, label string) (int, error) {
	f := filters.NewArgs(filters.Arg("label", label))
	list, err := e.cli.ContainerList(ctx, container.ListOptions{All: true, Filters: f})
	if err != nil {
		return 0, fmt.Errorf("listing halebench containers (%s): %w", label, err)
	}
	n := 0
	for _, c := range list {
		if err := (&Container{ID: c.ID, e: e}).Remove(); err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
