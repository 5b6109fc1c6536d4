package runner

import (
	"context"
	"strings"
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/suite"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Engine makes the containers the runner drives: every engine.Driver is
// one. A Container is what is done with one container that runs the
// sampler (run's, ab's and xproc's alike, on the pool): the runner attaches
// before starting it, starts it, and ends it.
type Engine interface {
	Create(ctx context.Context, s engine.Spec) (engine.Container, error)
}

// Every driver is an Engine.
var _ Engine = engine.Driver(nil)

// Job is one (bench, language) pair to sample in a Server; the image, the
// cpuset and the privilege are the server's.
type Job struct {
	Unit     string // the program's name in the bench image
	Lang     suite.Language
	Iters    int
	Warmup   int
	Timeout  time.Duration // per sample
	Seed     int64
	MemLimit int64 // per sample, bytes
	OutCap   int
	Env      []string
	// Count, when set, asks for counted runs (the count lane) after the
	// timed samples, or instead of them when Iters is 0. CountJobFor makes it.
	Count *wire.CountJob
	// Args follow the program's own argv (xproc's role and variant).
	Args []string
	// OnReady, when set, asks the sampler to say when the bench prints
	// the line "ready" (wire.Job.Ready), and is called then, once, from
	// Server.Run, which waits for it: it must not block.
	OnReady func()
	// room is wire.Job.Room: set by Pool.SamplePair alone.
	room string
}

// The sampler's wire types, as the runner's callers know them.
type (
	// Sample is one run of a bench program, as the sampler measured it.
	Sample = wire.Sample
	// Env is what the sampler saw of its container.
	Env = wire.Env
	// Privileges is one process's rights (the sampler's, and a bench's).
	Privileges = wire.Privileges
	// SamplerResult is the sampler's verdict on one job's samples.
	SamplerResult = wire.Result
	// Count is one counted run (the count lane).
	Count = wire.Count
)

// Outcome is everything one job produced.
type Outcome struct {
	Status      outcome.Status `json:"status"`
	Detail      string         `json:"detail,omitempty"`
	BuildError  string         `json:"build_error,omitempty"`
	Samples     []Sample       `json:"samples"` // measured samples, warm-up excluded
	Warmups     []Sample       `json:"warmups,omitempty"`
	Counts      []Count        `json:"counts,omitempty"` // counted runs, when the job asked
	Env         Env            `json:"env"`
	CPUsAsked   string         `json:"cpus_asked"`
	ContainerID string         `json:"container_id"`
	// JobNs is the job's round trip: sent to the sampler, answered.
	JobNs int64 `json:"job_ns"`
}

// ResultPrefix starts each line on which the sampler answers a job.
const ResultPrefix = wire.ResultPrefix

// fill copies the sampler's verdict into an outcome.
func fill(o Outcome, res SamplerResult) Outcome {
	o.Status, o.Detail, o.BuildError, o.Env = outcome.Status(res.Status), termtext.Clean(res.Detail), termtext.Clean(res.BuildError), res.Env
	for _, s := range res.Samples {
		s.Detail, s.StderrTail, s.Check = termtext.Clean(s.Detail), termtext.Clean(s.StderrTail), termtext.Clean(s.Check)
		if s.Warmup {
			o.Warmups = append(o.Warmups, s)
		} else {
			o.Samples = append(o.Samples, s)
		}
	}
	for _, c := range res.Counts {
		c.Detail = termtext.Clean(c.Detail)
		o.Counts = append(o.Counts, c)
	}
	if o.Samples == nil {
		o.Samples = []Sample{}
	}
	return o
}

func fail(o Outcome, st outcome.Status, detail string) Outcome {
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
