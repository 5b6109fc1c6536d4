package harness

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hale-lang/halebench/orchestrator/collect"
	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/session"
)

// Images makes or finds the images a run needs (image.Builder).
type Images = session.Builder

// Engine is what a run samples with (session.Sampling): the one
// sampler interface, plan.Sampler, with the privilege it was granted and
// its containers' end. A run gets one only from Env.Ready, which probes
// the privilege first: nothing samples before the probe.
type Engine interface {
	plan.Sampler
	Privilege() (engine.Privilege, []engine.Attempt)
	CloseSamplers() []runner.Started
}

// Env is where a run is made.
type Env struct {
	RunID  string
	Host   engine.HostInfo
	Images Images
	// Ready probes the privilege, takes the host's CPUs and returns what
	// samples (session.Session.Ready).
	Ready func(ctx context.Context) (Engine, error)
	// Engine is what Ready returned; Run sets it once the images exist.
	Engine Engine
	// Platform is the images' architecture and whether they run emulated
	// (zero: the engine's own, natively).
	Platform session.Platform
}

// Errors the CLI maps to exit codes: the gate's are judge's, ErrInterrupted
// is session's: one value each for every verb.
var (
	ErrRegression  = judge.ErrRegression
	ErrInterrupted = session.ErrInterrupted
)

// Result is a finished (or interrupted) run.
type Result struct {
	Report     *report.Report
	ReportPath string
}

// Errors the CLI maps to exit code 1: the gate said no (judge.GateError).
var (
	ErrFailed       = judge.ErrFailed
	ErrInconclusive = judge.ErrInconclusive
)

// Run runs a prepared suite. The error is ErrRegression when the subject
// regressed, ErrFailed when it failed on a bench, ErrInconclusive under
// --strict, judge.ErrUnmeasured when FailUnmeasured was asked and the
// subject had no toolchain, ErrInterrupted when ctx was cancelled (the partial report is
// written either way), or what stopped the run from being made.
//
// Values flow one way: images, then per bench its measurements and the
// judge's verdict on them, then the report, assembled from those values
// at the end (or at the interruption) and never read back.
func Run(ctx context.Context, env Env, p *Plan) (*Result, error) {
	r, err := newRun(env, p)
	if err != nil {
		return nil, err
	}
	if r.built, err = buildImages(ctx, env.Images, p); err != nil {
		return r.interruptedOr(ctx, err)
	}
	if err := r.checkSubject(); err != nil {
		return nil, err
	}
	if len(r.built.benches) == 0 {
		return nil, errors.New("no language has a toolchain and a bench to run (see the warnings above)")
	}
	if r.env.Engine, err = env.Ready(ctx); err != nil {
		return r.interruptedOr(ctx, err)
	}
	priv, refused := r.env.Engine.Privilege()
	r.host.Privilege, r.host.PrivilegeRefusals = collect.Privilege(priv), collect.Attempts(refused)
	if r.host.CPUModel != "" {
		r.decideMachine() // else once the first sampler has named the CPU
	}
	var passes [][]*benchRun
	for pass := 0; pass < p.Runs; pass++ {
		if p.Runs > 1 {
			fmt.Fprintf(p.Log, "baselines: independent run %d of %d\n", pass+1, p.Runs)
		}
		r.count.idle = pass < p.Runs-1 // counts do not drift: the last pass counts
		interrupted := r.measure(ctx)
		r.samplers = append(r.samplers, r.env.Engine.CloseSamplers()...) // the next pass starts fresh containers
		if interrupted {
			return r.finish(outcome.Interrupted)
		}
		passes = append(passes, r.benches)
	}
	r.count.sayCost(p.Log)
	return r.judgeAndWrite(passes)
}

// judgeAndWrite gives the run its status, records the baselines when asked
// and writes the report; the error is the gate's.
func (r *run) judgeAndWrite(passes [][]*benchRun) (*Result, error) {
	r.gone = missingBenches(r.p)
	st := judge.Run(r.benchStatuses())
	if r.p.UpdateBaselines {
		var err error
		if r.p.Count != CountOnly { // --count=only writes count fields alone
			if r.rebaseline, err = updateBaselines(r, passes); err != nil {
				return nil, err
			}
		}
		if err = r.updateCounts(passes[len(passes)-1]); err != nil {
			return nil, err
		}
		if st != outcome.Failed {
			st = outcome.OK // an update run is not gated by the file it replaces
		}
	}
	res, err := r.finish(st)
	if err != nil {
		return res, err
	}
	if r.unmeasured != "" { // the root cause: what else failed followed from it
		return res, fmt.Errorf("%s; in CI (CI=true) a run that could not measure its subject fails, with nothing gated: %w", r.unmeasured, judge.ErrUnmeasured)
	}
	if err := judge.GateError(st, r.p.Strict); err != nil || !r.p.FailUnmeasured {
		return res, err
	}
	return res, judge.ErrUnwitnessed(r.benchStatuses())
}

// interruptedOr is the partial report when ctx was cancelled, err otherwise.
func (r *run) interruptedOr(ctx context.Context, err error) (*Result, error) {
	if ctx.Err() != nil {
		return r.finish(outcome.Interrupted)
	}
	return nil, err
}

// finish assembles the report from the run's values, with its status, and
// writes it; an interrupted run's error is ErrInterrupted.
func (r *run) finish(st outcome.Status) (*Result, error) {
	rep := r.assemble(st)
	path, err := report.Write(rep, r.p.ResultsDir)
	if err != nil {
		return nil, err
	}
	res := &Result{Report: rep, ReportPath: path}
	if st == outcome.Interrupted {
		return res, ErrInterrupted
	}
	return res, nil
}

func orchestratorCPUs(n int) string {
	if n > 1 {
		return "0"
	}
	return "0 (shared)"
}

// startedAt is when a run's report says it was made.
func startedAt() string { return time.Now().UTC().Format(time.RFC3339Nano) }
