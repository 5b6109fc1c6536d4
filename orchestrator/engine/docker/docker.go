package docker

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/docker/docker/client"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// Engine is a connected Docker Engine: halebench's Docker driver.
type Engine struct {
	cli     *client.Client
	host    string // as errors and the report name it (ShownHost)
	context string // the docker context that named it, if one did
	feat    struct {
		sync.Mutex
		known *engine.Features // asked once per connection
	}
}

var _ engine.Driver = (*Engine)(nil)

// Connect dials the engine the process's environment names, as the docker
// CLI resolves it (ResolveEndpoint: DOCKER_HOST, DOCKER_CONTEXT, the CLI
// config's current context, the default socket), and checks that it
// answers within a few seconds.
func Connect(ctx context.Context) (*Engine, error) {
	ep, err := ResolveEndpoint(os.Getenv)
	if err != nil {
		return nil, fmt.Errorf("finding the Docker engine: %w", err)
	}
	return ConnectTo(ctx, ep)
}

// ConnectTo dials the engine at ep and checks that it answers within a few
// seconds. DOCKER_HOST's endpoint takes its TLS and API version from the
// environment as the docker CLI does; a context's, its TLS from its files.
func ConnectTo(ctx context.Context, ep Endpoint) (*Engine, error) {
	opts := []client.Opt{client.FromEnv}
	if ep.From != "DOCKER_HOST" {
		opts = []client.Opt{client.WithVersionFromEnv()}
		if ep.TLS != nil {
			cfg, err := ep.TLS.Config()
			if err != nil {
				return nil, fmt.Errorf("the TLS files of %s: %w", ep.Via(), err)
			}
			opts = append(opts, client.WithHTTPClient(&http.Client{Transport: &http.Transport{TLSClientConfig: cfg}, CheckRedirect: client.CheckRedirect}))
		}
		opts = append(opts, client.WithHost(ep.Host))
	}
	cli, err := client.NewClientWithOpts(append(opts, client.WithAPIVersionNegotiation())...)
	if err != nil {
		return nil, fmt.Errorf("docker client for %s: %w", ep.Where(), err)
	}
	pctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if _, err := cli.Ping(pctx); err != nil {
		cli.Close()
		return nil, &UnreachableError{Host: ShownHost(ep.Host), Via: ep.Via(), Err: err}
	}
	return &Engine{cli: cli, host: ShownHost(ep.Host), context: ep.Context}, nil
}

// UnreachableError says the engine did not answer: where it was dialled
// and what named that endpoint.
type UnreachableError struct {
	Host string
	Via  string // DOCKER_HOST, a docker context and where it came from, or the default socket
	Err  error
}

func (e *UnreachableError) Error() string {
	return fmt.Sprintf("engine unreachable at %s (%s): is the daemon running? (DOCKER_HOST, DOCKER_CONTEXT or `docker context use` choose another engine): %v", e.Host, e.Via, e.Err)
}

func (e *UnreachableError) Unwrap() error { return e.Err }

// Close releases the connection.
func (e *Engine) Close() error { return e.cli.Close() }

// Host is the engine's address, as dialled.
func (e *Engine) Host() string { return e.host }

// Info describes the engine's host. The CPU model is read from the local
// /proc/cpuinfo when the engine is local; for a remote engine the run
// containers report it instead (see runner).
func (e *Engine) Info(ctx context.Context) (engine.HostInfo, error) {
	info, err := e.cli.Info(ctx)
	if err != nil {
		return engine.HostInfo{}, fmt.Errorf("engine info at %s: %w", e.host, err)
	}
	h := engine.HostInfo{
		EngineVersion: info.ServerVersion,
		EngineAPI:     e.cli.ClientVersion(),
		EngineHost:    e.host,
		EngineContext: e.context,
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

// isNotFound reports whether the engine said an object does not exist.
// Docker's client says so in errors engine.IsNotFound cannot see (a
// message wrapped around containerd's sentinel): what this driver returns
// for a missing object goes through engine.NotFound.
func isNotFound(err error) bool { return client.IsErrNotFound(err) }

// The Docker driver is engine.Open's "docker", the default.
func init() {
	engine.Register("docker", func(ctx context.Context) (engine.Driver, error) {
		e, err := Connect(ctx)
		if err != nil {
			return nil, err // not a nil *Engine in a non-nil interface
		}
		return e, nil
	})
}
