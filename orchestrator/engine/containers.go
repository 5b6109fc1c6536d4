package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/docker/docker/api/types/filters"
	"github.com/docker/docker/pkg/stdcopy"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Spec is one run container. Every field maps to one engine setting; the
// defaults are the sandbox: network none, read-only root, tmpfs scratch.
type Spec struct {
	Image     string
	Cmd       []string
	Env       []string
	Name      string
	RunID     string // the halebench run that owns the container
	Labels    map[string]string
	CPUs      string // cpuset, e.g. "1" or "0-1"
	Privilege Privilege
	Memory    int64 // bytes; 0 for no limit
	PidsLimit int64
	ShmSize   int64 // the size of /dev/shm in bytes (0: the engine's default)
	Writable  bool  // a writable root (the default is read-only)
	Stdin     bool  // keep stdin open for one attached client (see Attach)
	// ShareShm lets other containers use this one's /dev/shm (ShmOf);
	// ShmOf is the ID of the container whose /dev/shm this one uses
	// instead of its own. The Docker driver does both with IPC namespaces.
	ShareShm bool
	ShmOf    string
}

func (s Spec) configs() (*container.Config, *container.HostConfig) {
	labels := map[string]string{LabelApp: "1", LabelRun: s.RunID, LabelOwner: Owner(), LabelOwnerID: SelfIdentity().String()}
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
		IpcMode:   s.ipcMode(),
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
	s.Privilege.apply(hc)
	return cfg, hc
}

// ipcMode is ShareShm and ShmOf as Docker says them: an IPC namespace
// shared, or joined, holds the one /dev/shm.
func (s Spec) ipcMode() container.IpcMode {
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

// Create makes the container without starting it.
func (e *Engine) Create(ctx context.Context, s Spec) (*Container, error) {
	cfg, hc := s.configs()
	resp, err := e.cli.ContainerCreate(ctx, cfg, hc, nil, nil, s.Name)
	if err != nil {
		return nil, fmt.Errorf("creating container from %s: %w", s.Image, err)
	}
	return &Container{ID: resp.ID, e: e}, nil
}

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
	if err != nil && !IsNotFound(err) && !strings.Contains(err.Error(), "already in progress") {
		return fmt.Errorf("removing container %s: %w", termtext.ShortID(c.ID), err)
	}
	return nil
}

// Leftovers lists containers carrying halebench's label; runID "" lists all.
func (e *Engine) Leftovers(ctx context.Context, runID string) ([]string, error) {
	f := filters.NewArgs(filters.Arg("label", LabelApp))
	if runID != "" {
		f.Add("label", LabelRun+"="+runID)
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
