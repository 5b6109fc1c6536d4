package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
)

// Engine is what the runner needs of the engine.
type Engine interface {
	Create(ctx context.Context, s engine.Spec) (*engine.Container, error)
}

var _ Engine = (*engine.Engine)(nil)

// Job is one (bench, language) pair to sample.
type Job struct {
	Bench     string
	Unit      string // the program's name in the bench image
	Lang      toolchain.Language
	Image     string
	CPUs      string
	Iters     int
	Warmup    int
	Timeout   time.Duration // per sample
	Seed      int64
	MemLimit  int64 // per sample, bytes
	OutCap    int
	Privilege engine.Privilege
	RunID     string
	Env       []string
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
	// ContainerNs is the container's whole life: create to removal.
	ContainerNs int64 `json:"container_ns"`
}

// Statuses the runner adds to the sampler's.
const (
	StatusOK          = "ok"
	StatusRunFailed   = "run_failed"
	StatusTimeout     = "timeout"
	StatusInterrupted = "interrupted"
)

const resultPrefix = "halebench-result "

// Run samples one job.
func Run(ctx context.Context, eng Engine, j Job) (o Outcome) {
	start := time.Now()
	o.CPUsAsked = j.CPUs
	argv := []string{imagebuild.SamplerPath, "run",
		"--iters", strconv.Itoa(j.Iters),
		"--warmup", strconv.Itoa(j.Warmup),
		"--timeout", j.Timeout.String(),
		"--seed", strconv.FormatInt(j.Seed, 10),
		"--mem-limit", strconv.FormatInt(j.MemLimit, 10),
		"--out-cap", strconv.Itoa(j.OutCap),
		"--build-failed", imagebuild.FailedPath(j.Unit),
		"--"}
	argv = append(argv, j.Lang.Argv(imagebuild.BinPath(j.Unit), imagebuild.SrcPath(j.Unit, j.Lang.Ext))...)
	spec := engine.Spec{
		Image:     j.Image,
		Cmd:       argv,
		Env:       j.Env,
		RunID:     j.RunID,
		CPUs:      j.CPUs,
		Privilege: j.Privilege,
		Labels:    map[string]string{"org.halebench.bench": j.Bench, "org.halebench.lang": j.Lang.Name},
	}
	if j.MemLimit > 0 {
		// Room for the sampler beside the bench's own limit.
		spec.Memory = j.MemLimit + 256<<20
	}
	c, err := eng.Create(ctx, spec)
	if err != nil {
		return fail(o, StatusRunFailed, err.Error())
	}
	o.ContainerID = c.ID
	defer func() {
		if err := c.Remove(); err != nil && o.Status == StatusOK {
			o.Status, o.Detail = StatusRunFailed, err.Error()
		}
		o.ContainerNs = time.Since(start).Nanoseconds()
	}()
	if err := c.Start(ctx); err != nil {
		return fail(o, StatusRunFailed, err.Error())
	}
	// The sampler times each sample out itself; this deadline only catches
	// a sampler that cannot.
	deadline := time.Duration(j.Iters+j.Warmup)*j.Timeout + 2*time.Minute
	wctx, cancel := context.WithTimeout(ctx, deadline)
	defer cancel()
	code, werr := c.Wait(wctx)
	if werr != nil {
		c.Kill(context.Background())
		if ctx.Err() != nil {
			return fail(o, StatusInterrupted, "the run was interrupted")
		}
		if errors.Is(wctx.Err(), context.DeadlineExceeded) {
			return fail(o, StatusTimeout, fmt.Sprintf("the container outlived its deadline of %s", deadline))
		}
		return fail(o, StatusRunFailed, werr.Error())
	}
	stdout, stderr, err := c.Output(context.Background(), 1<<20)
	if err != nil {
		return fail(o, StatusRunFailed, err.Error())
	}
	res, err := parseResult(stdout)
	if err != nil {
		return fail(o, StatusRunFailed, fmt.Sprintf("the sampler gave no result (container exit %d): %v; stderr: %s", code, err, tailString(stderr, 500)))
	}
	return fill(o, res)
}

// fill copies the sampler's verdict into an outcome.
func fill(o Outcome, res samplerResult) Outcome {
	o.Status, o.Detail, o.BuildError, o.Env = res.Status, res.Detail, res.BuildError, res.Env
	for _, s := range res.Samples {
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

// SamplerResult is the sampler's verdict on its samples.
type SamplerResult = samplerResult

// ParseResult finds the sampler's result line in a container's stdout.
func ParseResult(stdout string) (SamplerResult, error) { return parseResult(stdout) }

type samplerResult struct {
	ID         string   `json:"id"`
	Env        Env      `json:"env"`
	Status     string   `json:"status"`
	Detail     string   `json:"detail"`
	Samples    []Sample `json:"samples"`
	BuildError string   `json:"build_error"`
}

// parseResult finds the sampler's JSON line in its stdout.
func parseResult(stdout string) (samplerResult, error) {
	var res samplerResult
	i := strings.LastIndex(stdout, resultPrefix)
	if i < 0 {
		return res, errors.New("no result line")
	}
	line := stdout[i+len(resultPrefix):]
	if j := strings.IndexByte(line, '\n'); j >= 0 {
		line = line[:j]
	}
	if err := json.Unmarshal([]byte(line), &res); err != nil {
		return res, fmt.Errorf("result line: %w", err)
	}
	if res.Status == "" {
		return res, errors.New("result without a status")
	}
	return res, nil
}

func fail(o Outcome, status, detail string) Outcome {
	o.Status, o.Detail = status, detail
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
