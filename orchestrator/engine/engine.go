package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/docker/docker/client"
)

// Labels every halebench container carries.
const (
	LabelApp = "org.halebench"
	LabelRun = "org.halebench.run"
)

// Engine is a connected Docker Engine.
type Engine struct {
	cli  *client.Client
	host string
}

// Connect dials the engine named by DOCKER_HOST (or the default socket) and
// checks that it answers within a few seconds.
func Connect(ctx context.Context) (*Engine, error) {
	cli, err := client.NewClientWithOpts(client.FromEnv, client.WithAPIVersionNegotiation())
	if err != nil {
		return nil, fmt.Errorf("docker client: %w (check DOCKER_HOST)", err)
	}
	host := cli.DaemonHost()
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if _, err := cli.Ping(pctx); err != nil {
		cli.Close()
		return nil, &UnreachableError{Host: host, Err: err}
	}
	return &Engine{cli: cli, host: host}, nil
}

// UnreachableError says the engine did not answer.
type UnreachableError struct {
	Host string
	Err  error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("engine unreachable at %s (is the daemon running? set DOCKER_HOST to use another): %v", e.Host, e.Err)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// Close releases the connection.
func (e *Engine) Close() error { return e.cli.Close() }

// Host is the engine's address, as dialled.
func (e *Engine) Host() string { return e.host }

// HostInfo is what decides whether two runs are comparable.
type HostInfo struct {
	EngineVersion string `json:"engine_version"`
	EngineAPI     string `json:"engine_api"`
	EngineHost    string `json:"engine_host"`
	OS            string `json:"os"`
	Kernel        string `json:"kernel"`
	Arch          string `json:"arch"`
	CPUModel      string `json:"cpu_model"`
	LogicalCPUs   int    `json:"logical_cpus"`
	MemoryBytes   int64  `json:"memory_bytes"`
	CgroupVersion string `json:"cgroup_version"`
	CgroupDriver  string `json:"cgroup_driver"`
	StorageDriver string `json:"storage_driver"`
	Hostname      string `json:"hostname"`
}

// Info describes the engine's host. The CPU model is read from the local
// /proc/cpuinfo when the engine is local; for a remote engine the run
// containers report it instead (see runner).
func (e *Engine) Info(ctx context.Context) (HostInfo, error) {
	info, err := e.cli.Info(ctx)
	if err != nil {
		return HostInfo{}, fmt.Errorf("engine info at %s: %w", e.host, err)
	}
	h := HostInfo{
		EngineVersion: info.ServerVersion,
		EngineAPI:     e.cli.ClientVersion(),
		EngineHost:    e.host,
		OS:            info.OperatingSystem,
		Kernel:        info.KernelVersion,
		Arch:          info.Architecture,
		LogicalCPUs:   info.NCPU,
		MemoryBytes:   info.MemTotal,
		CgroupVersion: "v" + strings.TrimPrefix(info.CgroupVersion, "v"),
		CgroupDriver:  info.CgroupDriver,
		StorageDriver: info.Driver,
		Hostname:      info.Name,
	}
	if strings.HasPrefix(e.host, "unix://") {
		h.CPUModel = localCPUModel()
	}
	return h, nil
}

func localCPUModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// IsNotFound reports whether err says an object does not exist.
func IsNotFound(err error) bool {
	var nf interface{ NotFound() }
	return errors.As(err, &nf) || client.IsErrNotFound(err)
}
