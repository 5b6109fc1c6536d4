package harness

import (
	"context"
	"github.com/hale-lang/halebench/images/sampler/wire"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/stats"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// placement is where a job ran: its image and cpuset, and whether that
// cpuset is shared with the orchestrator.
type placement struct {
	image, cpus string
	shared      bool
}

// lane is one language's samples of a bench as they accumulate.
type lane struct {
	lang  suite.Language
	at    placement
	where runner.Where
	out   runner.Outcome
	base  runner.Job
	done  bool // failed, unavailable or interrupted: no more samples
	// noToolchain: unavailable because its language's toolchain is; the
	// reason was said once when the images were made, and is referred to.
	noToolchain bool
	count       countLane
}

// job is the lane's job for n samples after w warm-ups.
func (l *lane) job(n, w int) runner.Job {
	j := l.base
	j.Iters, j.Warmup = n, w
	return j
}

// sampleBench takes the samples of every language of a bench interleaved:
// round after round, one sample of each language in turn (the first round
// after its warm-ups), so that a machine drifting during the bench moves
// every language alike and ratios stay honest. A language that fails stops
// there, keeping what it had. The count lane counts the bench later
// (counting.countAll), once every bench of the pass is timed.
func sampleBench(ctx context.Context, env Env, p *Plan, b *suite.Bench, built built, seed int64, prog *progress, cnt *counting) map[string]*lane {
	lanes, order := newLanes(env, p, b, built, seed, cnt)
	sampleLanes(ctx, env, b.Name, order, p.Iters, p.Warmup, prog)
	return lanes
}

// sampleLanes runs rounds of one sample of each live lane in turn on the
// one executor (the first round after warmup warm-ups): a bench's lanes
// for its samples, or the subject's alone for its confirm samples. A lane
// that fails stops there, keeping what it had; one the interruption
// reaches is marked so.
func sampleLanes(ctx context.Context, env Env, bench string, order []*lane, rounds, warmup int, prog *progress) {
	units := make([][]plan.Job, len(order))
	for i, ln := range order {
		units[i] = []plan.Job{{Cell: plan.Cell{Bench: bench, Lang: ln.lang.Name}, Where: ln.where, Job: ln.job(1, warmup)}}
	}
	e := &plan.Exec{Sampler: env.Engine, Schedule: plan.RoundRobin{N: rounds}, Units: units,
		Live:    func(u int) bool { return !order[u].done },
		Sending: func(round int, s plan.Step) { prog.sampling(bench, order[s.Unit].lang.Name, round, rounds) },
		Take: func(_ int, s plan.Step, r plan.Result) bool {
			ln := order[s.Unit]
			if r.NotSent {
				interrupt(ln)
			} else {
				merge(&ln.out, r.Outcome)
				ln.done = ln.out.Status != outcome.OK
			}
			return ln.done
		},
	}
	if stop, _ := e.Run(ctx); stop == plan.Stopped {
		for _, ln := range order {
			if !ln.done {
				interrupt(ln)
			}
		}
	}
}

// interrupt marks a lane the interruption reached before its last sample.
func interrupt(ln *lane) {
	ln.out.Status, ln.out.Detail, ln.done = outcome.Interrupted, "the run was interrupted", true
}

// newLanes is a bench's lanes, the subject's first, each with its job (and
// count job) or why it has none.
func newLanes(env Env, p *Plan, b *suite.Bench, built built, seed int64, cnt *counting) (map[string]*lane, []*lane) {
	lanes := map[string]*lane{}
	var order []*lane
	for _, l := range p.Languages {
		if b.Sources[l.Name] == "" {
			continue
		}
		ln := &lane{lang: l, out: runner.Outcome{Samples: []runner.Sample{}}}
		lanes[l.Name] = ln
		if l.Name == p.SubjectLang.Name {
			order = append([]*lane{ln}, order...) // each round starts with the subject
		} else {
			order = append(order, ln)
		}
		tc, bi := built.toolchains[l.Name], built.benches[l.Name]
		cpus, shared, err := runner.PlanCPUs(env.Host.LogicalCPUs, b.CPUs)
		switch {
		case tc.Status != image.Available:
			ln.out.Status, ln.out.Detail, ln.done, ln.noToolchain = outcome.Unavailable, tc.Reason, true, true
		case bi.Ref == "" && built.failed[l.Name] != "":
			// The report's build_error, as a compile's message would be.
			ln.out.Status, ln.out.BuildError, ln.done = outcome.BuildFailed, built.failed[l.Name], true
		case bi.Ref == "":
			ln.out.Status, ln.out.Detail, ln.done = outcome.Unavailable, "no bench image", true
		case err != nil:
			ln.out.Status, ln.out.Detail, ln.done = outcome.Skipped, err.Error(), true
		default:
			ln.at = placement{image: bi.Ref, cpus: cpus, shared: shared}
			ln.where, ln.base = runner.Place(b, l, bi, cpus, seed, runner.Limits{Timeout: p.Timeout, MemLimit: p.MemLimit, OutCap: p.OutCap})
			ln.out.Status = outcome.OK
			cnt.plan(ln, b)
			if p.Count == CountOnly && !ln.count.asked {
				// Nothing would be measured: say so, never an "ok" with no sample.
				ln.out.Status, ln.out.Detail, ln.done = outcome.Skipped, NotTimedNotCounted, true
			}
		}
	}
	return lanes, order
}

// merge adds one job's outcome to what a lane has: its samples, and its
// status where it failed.
func merge(acc *runner.Outcome, o runner.Outcome) {
	acc.Samples = append(acc.Samples, o.Samples...)
	acc.Warmups = append(acc.Warmups, o.Warmups...)
	if acc.Env.Affinity == "" && acc.Env.MemPeakSource == "" {
		acc.Env = o.Env
	}
	if o.ContainerID != "" {
		acc.ContainerID = o.ContainerID
	}
	acc.JobNs += o.JobNs
	if o.Status != outcome.OK {
		acc.Status, acc.Detail, acc.BuildError = o.Status, o.Detail, o.BuildError
	}
}

// measurement is what one language's outcome on a bench measured: its
// status and why, and on success its samples and check. Both the judge's
// cell and the report's row are made from it.
type measurement struct {
	status  outcome.Status
	detail  string
	check   string
	elapsed stats.Summary
	figures judge.MetricCell // every figure the samples carry, by wire name
	over    []int64          // wall time over the timed region, per sample
}

// measured reads an outcome once: on failure the reason (a compile error's
// first lines, the end of the failing sample's stderr), else every sample.
func measured(out runner.Outcome) measurement {
	m := measurement{status: out.Status, detail: out.Detail}
	if m.status == outcome.BuildFailed {
		m.detail = "compile error: " + firstLines(out.BuildError, 3)
	}
	if m.status != outcome.OK {
		all := failingSamples(out)
		if n := len(all); n > 0 && all[n-1].StderrTail != "" {
			m.detail += "; stderr: " + lastLines(all[n-1].StderrTail, 5)
		}
		return m
	}
	checks := map[string]bool{}
	var figs []map[string]int64
	for _, s := range out.Samples {
		figs = append(figs, s.Figures)
		if d := s.Fig(wire.WallNs) - s.Fig(wire.ElapsedNs); d > 0 {
			m.over = append(m.over, d)
		}
		checks[s.Check] = true
		m.check = s.Check
	}
	m.figures = judge.CellOf(figs)
	if len(checks) > 1 {
		// The same program printed different checks from sample to sample.
		m.status, m.detail = outcome.StatusParityMismatch, "check differs between samples of the same program"
	}
	m.elapsed = stats.Summarize(judge.MetricTime.Read(m.figures).Samples)
	return m
}

// failingSamples are the samples a failed outcome keeps: the failing run
// may be the warm-up, so the warm-ups too.
func failingSamples(out runner.Outcome) []runner.Sample {
	return append(append([]runner.Sample{}, out.Warmups...), out.Samples...)
}

// cell is the measurement as the judge needs it.
func (m measurement) cell() judge.Cell {
	t := judge.MetricTime.Read(m.figures)
	return judge.Cell{Status: m.status, Check: m.check, Median: t.Median, Samples: t.Samples, Figures: m.figures}
}

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, " | ")
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
