package plan

import (
	"context"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/runner"
)

// Sampler runs jobs on a run's sampler containers: runner.Pool, or the
// session's Sampling, which adds its rule on images not
// trusted (a fake in tests of pure logic). It is the one sampler
// interface of run, ab and xproc.
type Sampler interface {
	Sample(ctx context.Context, w runner.Where, j runner.Job) runner.Outcome
	SamplePair(ctx context.Context, w runner.PairWhere, reader, producer runner.Job) (runner.Outcome, *runner.Outcome)
}

// session.Sampling meets it too; the verbs, which hand it over, check
// that, and plan stays below the session.
var _ Sampler = (*runner.Pool)(nil)

// Cell names what a job measures: a bench (or an xproc row) in a language.
type Cell struct{ Bench, Lang string }

// Job is one cell's job on one side, where it runs and what it asks.
type Job struct {
	Cell Cell
	// Side is ab's "A" or "B", xproc's "reader" ("" for a run's job).
	Side  string
	Where runner.Where
	Job   runner.Job
	// Producer, when set, makes the job an xproc pair: the producer's job
	// is sent once the reader's bench says ready (runner.Pool.SamplePair).
	Producer *Producer
}

// Producer is the second side of an xproc pair: its container joins the
// reader's IPC namespace, whose /dev/shm holds ShmSize bytes.
type Producer struct {
	Where   runner.Where
	Job     runner.Job
	ShmSize int64
}

// Result is what one job produced; Producer is the producer's outcome of a
// pair (nil: never sent, the reader never said ready).
type Result struct {
	Outcome  runner.Outcome
	Producer *runner.Outcome
	// NotSent: the run was interrupted before the job was sent.
	NotSent bool
}

// Send hands one job to s: the one place run, ab and xproc reach the
// sampler pool.
func Send(ctx context.Context, s Sampler, j Job) Result {
	if j.Producer == nil {
		return Result{Outcome: s.Sample(ctx, j.Where, j.Job)}
	}
	w := runner.PairWhere{Reader: j.Where, Producer: j.Producer.Where, ShmSize: j.Producer.ShmSize}
	ro, po := s.SamplePair(ctx, w, j.Job, j.Producer.Job)
	return Result{Outcome: ro, Producer: po}
}

// Interrupted is the result of a job not sent because the run was
// interrupted first.
func Interrupted() Result {
	return Result{NotSent: true, Outcome: runner.Outcome{Status: outcome.Interrupted, Detail: "the run was interrupted", Samples: []runner.Sample{}}}
}
