package harness

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"time"

	"github.com/hale-lang/halebench/orchestrator/collect"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/suite"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// run is one run's values as they are made: the images, what the host and
// the samplers said, each bench's measurements and verdict. The report is
// assembled from them (assemble) and nothing here is read back out of it.
type run struct {
	p        *Plan
	env      Env
	at       string // when the run started, RFC 3339
	digest   string // of the bench sources
	built    built
	host     report.Host
	subject  report.Toolchain // the subject's toolchain, or why there is none
	warnings []string
	machine  *judge.MachineGate // decided once
	// noBaseline is why the baselines hold nothing for this run (they
	// were recorded on another architecture), "" when they may.
	noBaseline string
	benches    []*benchRun // this pass's
	gone       []string    // benches the baseline names that the suite lost
	samplers   []runner.Started
	count      *counting
	// rebaseline is what an --update-baselines recorded.
	rebaseline *report.Rebaseline
	// unmeasured is why the subject was not measured, when FailUnmeasured
	// makes that the run's end ("": it was, or nobody asked).
	unmeasured string
}

// benchRun is one bench of one pass: its languages' measurements, how
// many samples confirmed a suspect subject, and the judge's verdict.
type benchRun struct {
	b       *suite.Bench
	seed    int64
	lanes   map[string]*lane
	confirm int
	verdict judge.Verdict
}

func newRun(env Env, p *Plan) (*run, error) {
	r := &run{p: p, env: env, at: startedAt(), warnings: append([]string{}, p.Warnings...), count: newCounting(p)}
	r.host = report.Host{HostInfo: collect.HostInfo(env.Host), OrchestratorCPUs: orchestratorCPUs(env.Host.LogicalCPUs)}
	if err := r.platform(env.Platform); err != nil {
		return nil, err
	}
	var err error
	r.digest, err = plan.Digest(benchSources(p.Catalogue))
	return r, err
}

func (r *run) warn(msg, log string) {
	r.warnings = append(r.warnings, msg)
	fmt.Fprintf(r.p.Log, "warning: %s\n", log)
}

// checkSubject says what the run does without the subject's toolchain.
func (r *run) checkSubject() error {
	p := r.p
	r.subject = collect.Toolchain(r.built.toolchains[p.SubjectLang.Name])
	for _, w := range r.subject.Warnings { // hale's release rule
		msg := p.SubjectLang.Name + ": " + w
		if p.RequireSubject {
			return errors.New(msg + " and --require-subject was given")
		}
		r.warn(msg, msg)
	}
	if r.subject.Status == outcome.Available {
		return nil
	}
	msg := fmt.Sprintf("%s: %s (%s)", p.SubjectLang.Name, r.subject.Status, r.subject.Reason)
	if p.RequireSubject {
		return errors.New(msg + " and --require-subject was given")
	}
	if p.FailUnmeasured {
		r.unmeasured = fmt.Sprintf("%s: %s (%s)", p.SubjectLang.Name, r.subject.Status, termtext.FirstLine(r.subject.Reason))
	}
	// The reason was said when the images were made: the log refers to it.
	r.warn(msg+"; nothing gates this run", fmt.Sprintf("%s: %s (%s); measuring the other languages, nothing gates", p.SubjectLang.Name, r.subject.Status, report.SaidAbove(p.SubjectLang.Name)))
	return nil
}

// measure samples every bench, its languages interleaved, re-measuring a
// suspect subject; then the count lane counts the cells it can, in
// parallel; then each bench is judged. It says whether the run was
// interrupted; the cells it did not reach are marked so.
func (r *run) measure(ctx context.Context) (interrupted bool) {
	p := r.p
	rng := rand.New(rand.NewSource(time.Now().UnixNano()))
	prog := newProgress(p)
	r.benches = nil
	for _, b := range p.Catalogue.Benches {
		br := &benchRun{b: b, seed: rng.Int63n(1 << 31)}
		r.benches = append(r.benches, br)
		br.lanes = sampleBench(ctx, r.env, p, b, r.built, br.seed, prog, r.count)
		for _, ln := range br.lanes {
			collect.NoteSampler(&r.host, ln.out.Env)
		}
		if r.machine == nil {
			r.decideMachine()
		}
		if subj := br.lanes[p.SubjectLang.Name]; subj != nil && p.Confirm > 0 && !p.UpdateBaselines && ctx.Err() == nil &&
			judge.Suspect(measured(subj.out).cell(), r.gateOf(b.Name)) {
			r.confirm(ctx, br, subj, prog)
		}
		for _, ln := range br.lanes {
			prog.finished(b.Name, ln.lang.Name, ln)
		}
	}
	r.count.countAll(ctx, r.env, r.benches, prog)
	for _, br := range r.benches {
		br.verdict = judge.Bench(p.SubjectLang.Name, cells(br.lanes), r.gateOf(br.b.Name))
	}
	return ctx.Err() != nil
}

// confirm takes Confirm more samples of a suspect subject, to be judged on
// all of them: one unlucky block of samples does not fail a release, and a
// real regression shows again. They are rounds of the one executor, one
// sample a job, as the bench's own samples were.
func (r *run) confirm(ctx context.Context, br *benchRun, subj *lane, prog *progress) {
	p := r.p
	fmt.Fprintf(p.Log, "confirm: %s %s is over its band; %d more samples\n", br.b.Name, p.SubjectLang.Name, p.Confirm)
	sampleLanes(ctx, r.env, br.b.Name, []*lane{subj}, p.Confirm, 0, prog)
	br.confirm = p.Confirm
}

// cells is what the judge needs of each language's measurements on a bench.
func cells(lanes map[string]*lane) map[string]judge.Cell {
	out := map[string]judge.Cell{}
	for lang, ln := range lanes {
		c := measured(ln.out).cell()
		c.Count = cellOf(ln)
		out[lang] = c
	}
	return out
}

func (r *run) benchStatuses() []judge.BenchStatus {
	var out []judge.BenchStatus
	for _, br := range r.benches {
		out = append(out, judge.BenchStatus{Status: br.verdict.Status, HadBaseline: r.p.Base.Benches[br.b.Name] != nil})
	}
	for range r.gone {
		out = append(out, judge.BenchStatus{Status: outcome.NoBench, HadBaseline: true})
	}
	return out
}
