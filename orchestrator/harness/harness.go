package harness

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/status"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
)

// Images makes or finds the images a run needs (imagebuild.Builder).
type Images interface {
	SamplerToolchain(ctx context.Context) (imagebuild.Toolchain, error)
	Base(ctx context.Context) (imagebuild.Base, error)
	Toolchain(ctx context.Context, lang toolchain.Language) (imagebuild.Toolchain, error)
	BenchImage(ctx context.Context, lang toolchain.Language, srcs []imagebuild.Source) (imagebuild.BenchImage, error)
}

var _ Images = (*imagebuild.Builder)(nil)

// Engine is what a run needs of the engine once its images exist
// (lifecycle.Session): the privilege containers get, the host's CPUs, and
// the sampler containers that take a job's samples.
type Engine interface {
	ProbePrivilege(ctx context.Context) (engine.Privilege, []engine.Attempt, error)
	LockCPUs(ctx context.Context) error
	Sample(ctx context.Context, w runner.Where, j runner.Job) runner.Outcome
	CloseSamplers() []runner.Started
}

// Env is where a run is made.
type Env struct {
	RunID  string
	Host   engine.HostInfo
	Images Images
	Engine Engine
}

// Errors the CLI maps to exit codes.
var (
	ErrRegression  = errors.New("regression")
	ErrInterrupted = errors.New("interrupted")
)

// Result is a finished (or interrupted) run.
type Result struct {
	Report     *report.Report
	ReportPath string
}

// Run runs a prepared suite. The error is ErrRegression when the subject
// regressed, ErrInterrupted when ctx was cancelled (the partial report is
// written either way), or what stopped the run from being made.
func Run(ctx context.Context, env Env, p *Plan) (*Result, error) {
	rep, err := newReport(env, p)
	if err != nil {
		return nil, err
	}
	images, err := buildImages(ctx, env.Images, p, rep)
	if err != nil {
		return interruptedOr(ctx, rep, p, err)
	}
	if err := checkSubject(p, rep); err != nil {
		return nil, err
	}
	if len(images) == 0 {
		return nil, errors.New("no language has a toolchain and a bench to run (see the warnings above)")
	}
	if err := readySampling(ctx, env, rep); err != nil {
		return interruptedOr(ctx, rep, p, err)
	}
	interrupted := measure(ctx, env, p, rep, images)
	rep.Samplers = env.Engine.CloseSamplers()
	if interrupted {
		return finish(rep, p, status.Interrupted)
	}
	rep.Status = judge.Run(benchStatuses(rep))
	if p.UpdateBaselines {
		if err := updateBaselines(p, rep); err != nil {
			return nil, err
		}
	}
	res, err := finish(rep, p, rep.Status)
	if err == nil && rep.Status == status.Regression && !p.UpdateBaselines {
		err = ErrRegression
	}
	return res, err
}

// newReport starts the report with what is known before anything runs.
func newReport(env Env, p *Plan) (*report.Report, error) {
	rep := &report.Report{
		Schema:      report.Schema,
		GeneratedAt: time.Now().UTC().Format(time.RFC3339Nano),
		RunID:       env.RunID,
		Iters:       p.Iters,
		Warmup:      p.Warmup,
		Subject:     p.Subject.Name,
		Host:        report.Host{HostInfo: env.Host, OrchestratorCPUs: orchestratorCPUs(env.Host.LogicalCPUs)},
		Settings: report.Settings{
			TimeoutPerSample: p.Timeout.String(), MemLimitBytes: p.MemLimit, OutputCapBytes: p.OutCap,
			Languages: names(p.Langs),
		},
		Images:      map[string]imagebuild.Toolchain{},
		BenchImages: map[string]imagebuild.BenchImage{},
		Baselines:   p.Baselines,
		Benches:     []*report.Bench{},
		Warnings:    append([]string{}, p.Warnings...),
		Samplers:    []runner.Started{},
	}
	for _, c := range p.Suite.Categories {
		rep.Categories = append(rep.Categories, report.Category{Name: c.Name, Title: c.Title, Benches: c.Benches})
	}
	var err error
	rep.SourcesDigest, err = sourcesDigest(p.Suite)
	return rep, err
}

func orchestratorCPUs(n int) string {
	if n > 1 {
		return "0"
	}
	return "0 (shared)"
}

// checkSubject says what the run does without the subject's toolchain.
func checkSubject(p *Plan, rep *report.Report) error {
	tc := rep.Images[p.Subject.Name]
	rep.SubjectStatus, rep.SubjectReason = tc.Status, tc.Reason
	if tc.Status == imagebuild.Available {
		return nil
	}
	msg := fmt.Sprintf("%s: %s (%s)", p.Subject.Name, tc.Status, tc.Reason)
	if p.RequireSubject {
		return errors.New(msg + " and --require-subject was given")
	}
	rep.Warnings = append(rep.Warnings, msg+"; nothing gates this run")
	fmt.Fprintf(p.Log, "warning: %s; measuring the other languages, nothing gates\n", msg)
	return nil
}

// readySampling probes the privilege and takes the host's CPUs.
func readySampling(ctx context.Context, env Env, rep *report.Report) error {
	priv, refused, err := env.Engine.ProbePrivilege(ctx)
	if err != nil {
		return err
	}
	rep.Host.Privilege, rep.Host.PrivilegeRefusals = priv, refused
	return env.Engine.LockCPUs(ctx)
}

// measure samples every (bench, language) and judges each bench as its
// last language finishes. It says whether the run was interrupted; the
// cells it did not reach are marked so.
func measure(ctx context.Context, env Env, p *Plan, rep *report.Report, images map[string]imagebuild.BenchImage) (interrupted bool) {
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	prog := newProgress(p)
	for _, b := range p.Suite.Benches {
		rb := newBench(b, p, rng.Int63n(1<<31))
		rep.Benches = append(rep.Benches, rb)
		for _, l := range p.Langs {
			if b.Sources[l.Name] == "" {
				continue
			}
			var res *report.Lang
			if interrupted = interrupted || ctx.Err() != nil; interrupted {
				res = &report.Lang{Status: status.Interrupted, Comparable: b.Comparable(l.Name)}
			} else {
				prog.start(b.Name, l.Name)
				out, at := sampleOne(ctx, env, p, b, l, rep.Images[l.Name], images[l.Name], rb.Seed)
				res = langResult(out, at, b.Comparable(l.Name))
				prog.finished(b.Name, l.Name, res)
				rep.Host.NoteSampler(out.Env)
			}
			if l.Name == p.Subject.Name {
				rb.SubjectResult = res
			} else {
				rb.Comparatives[l.Name] = res
			}
		}
		applyVerdict(rb, p.Subject.Name, judge.Bench(p.Subject.Name, cells(rb, p.Subject.Name), p.Base.Benches[b.Name]))
	}
	return interrupted || ctx.Err() != nil
}

func benchStatuses(rep *report.Report) []status.Status {
	var out []status.Status
	for _, b := range rep.Benches {
		out = append(out, b.Status)
	}
	return out
}

// interruptedOr is the partial report when ctx was cancelled, err otherwise.
func interruptedOr(ctx context.Context, rep *report.Report, p *Plan, err error) (*Result, error) {
	if ctx.Err() != nil {
		return finish(rep, p, status.Interrupted)
	}
	return nil, err
}

// finish writes the report with its status; an interrupted run's error is
// ErrInterrupted.
func finish(rep *report.Report, p *Plan, st status.Status) (*Result, error) {
	rep.Status = st
	path, err := report.Write(rep, p.ResultsDir)
	if err != nil {
		return nil, err
	}
	res := &Result{Report: rep, ReportPath: path}
	if st == status.Interrupted {
		return res, ErrInterrupted
	}
	return res, nil
}
