package runner

import (
	"context"
	"io"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/status"
	"github.com/hale-lang/halebench/orchestrator/termtext"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
)

// Engine makes the containers the runner drives.
type Engine interface {
	Create(ctx context.Context, s engine.Spec) (Container, error)
}

// Container is what the runner does with one container: attach before
// starting it, start it, and end it.
type Container interface {
	Attach(ctx context.Context) (io.WriteCloser, io.Reader, error)
	Start(ctx context.Context) error
	Wait(ctx context.Context) (int64, error)
	Kill(ctx context.Context) error
	Remove() error
	Stderr() string
	Identity() string
}

var _ Container = (*engine.Container)(nil)

// OnEngine is the Docker Engine as the runner's Engine.
func OnEngine(e *engine.Engine) Engine { return dockerEngine{e} }

type dockerEngine struct{ e *engine.Engine }

func (d dockerEngine) Create(ctx context.Context, s engine.Spec) (Container, error) {
	c, err := d.e.Create(ctx, s)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Job is one (bench, language) pair to sample in a Server; the image, the
// cpuset and the privilege are the server's.
type Job struct {
	Unit     string // the program's name in the bench image
	Lang     toolchain.Language
	Iters    int
	Warmup   int
	Timeout  time.Duration // per sample
	Seed     int64
	MemLimit int64 // per sample, bytes
	OutCap   int
	Env      []string
}

// Sample is one run of a bench program, as the sampler measured it.
type Sample struct {
	Warmup     bool          `json:"warmup,omitempty"`
	Status     status.Status `json:"status"`
	Detail     string        `json:"detail,omitempty"`
	ElapsedNs  int64         `json:"elapsed_ns,omitempty"`
	Check      string        `json:"check,omitempty"`
	MaxRSSKB   int64         `json:"maxrss_kb,omitempty"`
	MemPeakKB  *int64        `json:"mem_peak_kb,omitempty"`
	WallNs     int64         `json:"wall_ns"`
	ExitCode   int           `json:"exit_code"`
	Signal     string        `json:"signal,omitempty"`
	StderrTail string        `json:"stderr_tail,omitempty"`
}

// Env is what the sampler saw of its container.
type Env struct {
	Affinity      string `json:"affinity"`
	CgroupCpuset  string `json:"cgroup_cpuset,omitempty"`
	CgroupVersion string `json:"cgroup_version"`
	MemPeakSource string `json:"mem_peak_source"`
	MemPeakError  string `json:"mem_peak_error,omitempty"`
	Kernel        string `json:"kernel,omitempty"`
	CPUModel      string `json:"cpu_model,omitempty"`
	// What the container gave the sampler, and what a bench process got.
	ContainerPrivileges *Privileges `json:"container_privileges,omitempty"`
	BenchPrivileges     *Privileges `json:"bench_privileges,omitempty"`
	ConfinementErrors   []string    `json:"confinement_errors,omitempty"`
}

// Outcome is everything one job produced.
type Outcome struct {
	Status      status.Status `json:"status"`
	Detail      string        `json:"detail,omitempty"`
	BuildError  string        `json:"build_error,omitempty"`
	Samples     []Sample      `json:"samples"` // measured samples, warm-up excluded
	Warmups     []Sample      `json:"warmups,omitempty"`
	Env         Env           `json:"env"`
	CPUsAsked   string        `json:"cpus_asked"`
	ContainerID string        `json:"container_id"`
	// JobNs is the job's round trip: sent to the sampler, answered.
	JobNs int64 `json:"job_ns"`
}

// ResultPrefix starts each line on which the sampler answers a job.
const ResultPrefix = "halebench-result "

// fill copies the sampler's verdict into an outcome.
func fill(o Outcome, res SamplerResult) Outcome {
	o.Status, o.Detail, o.BuildError, o.Env = res.Status, termtext.Clean(res.Detail), termtext.Clean(res.BuildError), res.Env
	for _, s := range res.Samples {
		s.Detail, s.StderrTail, s.Check = termtext.Clean(s.Detail), termtext.Clean(s.StderrTail), termtext.Clean(s.Check)
		if s.Warmup {
			o.Warmups = append(o.Warmups, s)
		} else {
			o.Samples = append(o.Samples, s)
		}
	}
	if o.Samples == nil {
		o.Samples = []Sample{}
	}
	return o
}

// SamplerResult is the sampler's verdict on one job's samples.
type SamplerResult struct {
	ID         string        `json:"id"`
	Nonce      string        `json:"nonce"`
	Spent      bool          `json:"spent"`
	Env        Env           `json:"env"`
	Status     status.Status `json:"status"`
	Detail     string        `json:"detail"`
	Samples    []Sample      `json:"samples"`
	BuildError string        `json:"build_error"`
}

func fail(o Outcome, st status.Status, detail string) Outcome {
	o.Status, o.Detail = st, termtext.Clean(detail)
	if o.Samples == nil {
		o.Samples = []Sample{}
	}
	return o
}

func tailString(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
