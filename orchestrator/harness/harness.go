package harness

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"sort"
	"time"

	"github.com/hale-lang/halebench/orchestrator/catalogue"
	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/lifecycle"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/status"
)

// Images makes or finds the images a run needs (imagebuild.Builder).
type Images = lifecycle.Builder

// Engine is what a run samples with (lifecycle.Sampling). A run gets one
// only from Env.Ready, which probes the privilege first: nothing samples
// before the probe.
type Engine interface {
	Privilege() (engine.Privilege, []engine.Attempt)
	Sample(ctx context.Context, w runner.Where, j runner.Job) runner.Outcome
	CloseSamplers() []runner.Started
}

// Env is where a run is made.
type Env struct {
	RunID  string
	Host   engine.HostInfo
	Images Images
	// Ready probes the privilege, takes the host's CPUs and returns what
	// samples (lifecycle.Session.Ready).
	Ready func(ctx context.Context) (Engine, error)
	// Engine is what Ready returned; Run sets it once the images exist.
	Engine Engine
}

// Errors the CLI maps to exit codes. ErrInterrupted is lifecycle's: one
// value for every verb.
var (
	ErrRegression  = errors.New("regression")
	ErrInterrupted = lifecycle.ErrInterrupted
)

// Result is a finished (or interrupted) run.
type Result struct {
	Report     *report.Report
	ReportPath string
}

// Errors the CLI maps to exit code 1: the gate said no.
var (
	ErrFailed       = errors.New("the subject failed on a bench")
	ErrInconclusive = errors.New("a bench was inconclusive and --strict was given")
)

// Run runs a prepared suite. The error is ErrRegression when the subject
// regressed, ErrFailed when it failed on a bench, ErrInconclusive under
// --strict, ErrInterrupted when ctx was cancelled (the partial report is
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
	if env.Engine, err = readySampling(ctx, env, rep); err != nil {
		return interruptedOr(ctx, rep, p, err)
	}
	var passes []map[string]*report.Lang
	for pass := 0; pass < p.Runs; pass++ {
		if p.Runs > 1 {
			fmt.Fprintf(p.Log, "baselines: independent run %d of %d\n", pass+1, p.Runs)
			rep.Benches = []*report.Bench{}
		}
		interrupted := measure(ctx, env, p, rep, images)
		rep.Samplers = append(rep.Samplers, env.Engine.CloseSamplers()...) // the next pass starts fresh containers
		if interrupted {
			return finish(rep, p, status.Interrupted)
		}
		passes = append(passes, subjectResults(rep))
	}
	missingBenches(p, rep)
	rep.Status = judge.Run(benchStatuses(rep, p))
	if p.UpdateBaselines {
		if err := updateBaselines(p, rep, passes); err != nil {
			return nil, err
		}
		if rep.Status != status.Failed {
			rep.Status = status.OK // an update run is not gated by the file it replaces
		}
	}
	res, err := finish(rep, p, rep.Status)
	if err != nil {
		return res, err
	}
	switch {
	case rep.Status == status.Failed:
		return res, ErrFailed
	case rep.Status == status.Regression:
		return res, ErrRegression
	case rep.Status == status.Inconclusive && p.Strict:
		return res, ErrInconclusive
	}
	return res, nil
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
		Gate:        report.Gate{Alpha: p.Alpha, Confirm: p.Confirm, Strict: p.Strict, AnyMachine: p.GateAnyMachine},
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
	for _, w := range tc.Warnings { // hale's release rule
		msg := p.Subject.Name + ": " + w
		if p.RequireSubject {
			return errors.New(msg + " and --require-subject was given")
		}
		rep.Warnings = append(rep.Warnings, msg)
		fmt.Fprintf(p.Log, "warning: %s\n", msg)
	}
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

// readySampling probes the privilege and takes the host's CPUs: what
// samples exists only after that.
func readySampling(ctx context.Context, env Env, rep *report.Report) (Engine, error) {
	eng, err := env.Ready(ctx)
	if err != nil {
		return nil, err
	}
	rep.Host.Privilege, rep.Host.PrivilegeRefusals = eng.Privilege()
	return eng, nil
}

// measure samples every bench, its languages interleaved, and judges each
// as it finishes, re-measuring a suspect subject first. It says whether the
// run was interrupted; the cells it did not reach are marked so.
func measure(ctx context.Context, env Env, p *Plan, rep *report.Report, images map[string]imagebuild.BenchImage) (interrupted bool) {
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	prog := newProgress(p)
	for _, b := range p.Suite.Benches {
		rb := newBench(b, p, rng.Int63n(1<<31))
		rep.Benches = append(rep.Benches, rb)
		lanes := sampleBench(ctx, env, p, b, rep, images, rb.Seed, prog)
		for _, ln := range lanes {
			res := langResult(ln.out, ln.at, b.Comparable(ln.lang.Name))
			rep.Host.NoteSampler(ln.out.Env)
			if ln.lang.Name == p.Subject.Name {
				rb.SubjectResult = res
			} else {
				rb.Comparatives[ln.lang.Name] = res
			}
		}
		gate := gateOf(p, rep, b.Name)
		if subj := lanes[p.Subject.Name]; subj != nil && p.Confirm > 0 && !p.UpdateBaselines && ctx.Err() == nil &&
			judge.Suspect(cells(rb, p.Subject.Name)[p.Subject.Name], gate) {
			confirm(ctx, env, p, b, subj, rb)
		}
		for _, ln := range lanes {
			prog.finished(b.Name, ln.lang.Name, langOf(rb, p.Subject.Name, ln.lang.Name))
		}
		applyVerdict(rb, p.Subject.Name, judge.Bench(p.Subject.Name, cells(rb, p.Subject.Name), gate))
		if ctx.Err() != nil {
			interrupted = true
		}
	}
	return interrupted || ctx.Err() != nil
}

// confirm takes Confirm more samples of a suspect subject and judges it on
// all of them: one unlucky block of samples does not fail a release, and a
// real regression shows again.
func confirm(ctx context.Context, env Env, p *Plan, b *catalogue.Bench, subj *lane, rb *report.Bench) {
	fmt.Fprintf(p.Log, "confirm: %s %s is over its band; %d more samples\n", b.Name, p.Subject.Name, p.Confirm)
	o := env.Engine.Sample(ctx, subj.where, subj.job(p.Confirm, 0))
	merge(&subj.out, o)
	rb.ConfirmSamples = p.Confirm
	rb.SubjectResult = langResult(subj.out, subj.at, b.Comparable(p.Subject.Name))
}

func langOf(rb *report.Bench, subject, lang string) *report.Lang {
	if lang == subject {
		return rb.SubjectResult
	}
	return rb.Comparatives[lang]
}

func benchStatuses(rep *report.Report, p *Plan) []judge.BenchStatus {
	var out []judge.BenchStatus
	for _, b := range rep.Benches {
		out = append(out, judge.BenchStatus{Status: b.Status, HadBaseline: p.Base.Benches[b.Name] != nil})
	}
	return out
}

// missingBenches reports, on a whole-suite run, each bench the baseline
// names that the suite no longer has: a gate that silently lost a bench.
func missingBenches(p *Plan, rep *report.Report) {
	if p.Bench != "" {
		return
	}
	have := map[string]bool{}
	for _, b := range p.Suite.All {
		have[b.Name] = true
	}
	var gone []string
	for name := range p.Base.Benches {
		if !have[name] {
			gone = append(gone, name)
		}
	}
	sort.Strings(gone)
	for _, name := range gone {
		rep.Benches = append(rep.Benches, &report.Bench{Name: name, Kind: p.Base.Benches[name].Kind, Category: "missing",
			Status: status.NoBench, Verdict: "the baselines name this bench; the suite has no program for it any more",
			Comparatives: map[string]*report.Lang{}, ElapsedNsSamples: []int64{}, MaxRSSKBSamples: []int64{}, MemPeakKBSamples: []int64{}})
	}
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
