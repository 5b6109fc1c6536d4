package runner

import (
	"context"
	"github.com/hale-lang/halebench/orchestrator/termtext"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
)

// Engine is what the runner needs of the engine.
type Engine interface {
	Create(ctx context.Context, s engine.Spec) (*engine.Container, error)
}

var _ Engine = (*engine.Engine)(nil)

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
	Warmup     bool   `json:"warmup,omitempty"`
	Status     string `json:"status"`
	Detail     string `json:"detail,omitempty"`
	ElapsedNs  int64  `json:"elapsed_ns,omitempty"`
	Check      string `json:"check,omitempty"`
	MaxRSSKB   int64  `json:"maxrss_kb,omitempty"`
	MemPeakKB  *int64 `json:"mem_peak_kb,omitempty"`
	WallNs     int64  `json:"wall_ns"`
	ExitCode   int    `json:"exit_code"`
	Signal     string `json:"signal,omitempty"`
	StderrTail string `json:"stderr_tail,omitempty"`
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
	Status      string   `json:"status"`
	Detail      string   `json:"detail,omitempty"`
	BuildError  string   `json:"build_error,omitempty"`
	Samples     []Sample `json:"samples"` // measured samples, warm-up excluded
	Warmups     []Sample `json:"warmups,omitempty"`
	Env         Env      `json:"env"`
	CPUsAsked   string   `json:"cpus_asked"`
	ContainerID string   `json:"container_id"`
	// JobNs is the job's round trip: sent to the sampler, answered.
	JobNs int64 `json:"job_ns"`
}

// Statuses the runner adds to the sampler's.
const (
	StatusOK          = "ok"
	StatusRunFailed   = "run_failed"
	StatusTimeout     = "timeout"
	StatusInterrupted = "interrupted"
)

const resultPrefix = "halebench-result "

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
	ID         string   `json:"id"`
	Nonce      string   `json:"nonce"`
	Spent      bool     `json:"spent"`
	Env        Env      `json:"env"`
	Status     string   `json:"status"`
	Detail     string   `json:"detail"`
	Samples    []Sample `json:"samples"`
	BuildError string   `json:"build_error"`
}

func fail(o Outcome, status, detail string) Outcome {
	o.Status, o.Detail = status, termtext.Clean(detail)
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
