package harness

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/stats"
)

// The count lane runs once a pass's timed lane is over: a count is the
// same whatever runs beside it, so its cells are counted in parallel, one
// job per CPU of the run (--count-jobs), and no timed sample ever shares a
// CPU with a counted run, as none is being taken. Counting after timing
// also means a cell is counted only when its timed samples succeeded, and
// each counted run is bounded by what the program's native run took.

// countTask is one cell to count: a lane of a bench, and the subject's
// baseline entry (nil for a comparative: nothing to settle one run by).
type countTask struct {
	bench string
	ln    *lane
	entry *judge.Entry
	cost  float64 // what counting it is expected to cost, to start the dearest first
}

// countAll counts every cell of the pass's benches that has a count job,
// on the count lane's CPUs in parallel; a cell whose timed samples failed
// is not counted, nor any once the run is interrupted.
func (c *counting) countAll(ctx context.Context, env Env, benches []*benchRun, prog *progress) {
	tasks := c.tasks(ctx, benches, prog)
	if len(tasks) == 0 {
		return
	}
	cpus := runner.CountCPUs(env.Host.LogicalCPUs, c.p.CountJobs)
	if len(cpus) > len(tasks) {
		cpus = cpus[:len(tasks)]
	}
	c.cpus = cpus
	prog.countStart(len(tasks), cpus)
	start := time.Now()
	if c.p.CountBudget > 0 {
		c.deadline = start.Add(c.p.CountBudget)
	}
	runs := make([]*countRun, len(tasks))
	units := make([][]plan.Job, len(tasks))
	for i, t := range tasks {
		runs[i] = &countRun{countTask: t}
		j := plan.Job{Cell: plan.Cell{Bench: t.bench, Lang: t.ln.lang.Name}, Where: t.ln.where, Job: t.ln.base}
		j.Job.Iters, j.Job.Warmup = 0, 0
		units[i] = []plan.Job{j, j} // the first counted run, then the rest
	}
	e := &plan.Exec{Sampler: env.Engine, Schedule: plan.RoundRobin{N: 1}, Units: units, CPUs: cpus,
		Shape: func(_ int, s plan.Step, j plan.Job) (plan.Job, bool) {
			return c.shape(ctx, runs[s.Unit], s.Job, j, prog)
		},
		Take: func(_ int, s plan.Step, r plan.Result) bool { return c.take(ctx, runs[s.Unit], s.Job, r.Outcome, prog) },
	}
	if stop, _ := e.Run(ctx); stop == plan.Stopped { // interrupted before its first round
		for _, r := range runs {
			r.ln.count.job, r.ln.count.why = nil, "the run was interrupted before it was counted"
		}
	}
	c.wall += time.Since(start)
}

// countRun is one cell's counting on the executor: its first counted run
// (step 0), bounded by the program's native time (or, where nothing was
// timed, by --timeout), then the rest of --count-runs (step 1), each
// bounded by the first's time — unless the first settles the verdict
// (judge.SettledByOne) outside an --update-baselines, which records from
// at least two.
type countRun struct {
	countTask
	start time.Time
	job   wire.CountJob // the job of the step being sent
	sent  time.Time     // when it was sent (zero: never, the run was interrupted first)
}

// tasks are the pass's cells to count, the dearest first (a long count
// started last would leave the other CPUs idle while it runs). A cell
// whose timed samples failed, or that the interruption reached first, gets
// its reason instead.
func (c *counting) tasks(ctx context.Context, benches []*benchRun, prog *progress) []countTask {
	var out []countTask
	for _, br := range benches {
		for _, ln := range laneOrder(br.lanes, c.p.SubjectLang.Name) {
			if ln.count.job == nil {
				continue
			}
			switch {
			case ctx.Err() != nil:
				ln.count.job, ln.count.why = nil, "the run was interrupted before it was counted"
			case ln.out.Status != outcome.OK:
				ln.count.job, ln.count.why = nil, fmt.Sprintf("its timed samples ended %s: a program that fails is not counted", ln.out.Status)
			}
			if ln.count.job == nil {
				prog.countSkipped(br.b.Name, ln)
				continue
			}
			t := countTask{bench: br.b.Name, ln: ln}
			if ln.lang.Name == c.p.SubjectLang.Name {
				t.entry = c.p.Base.Benches[br.b.Name]
			}
			t.cost = float64(nativeWall(ln.out))
			if t.cost == 0 && t.entry.HasCounts() { // --count=only: the recorded count
				t.cost = float64(t.entry.Instructions)
			}
			out = append(out, t)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].cost > out[j].cost })
	return out
}

// laneOrder is a bench's lanes, the subject's first, then by language.
func laneOrder(lanes map[string]*lane, subject string) []*lane {
	var out []*lane
	for _, ln := range lanes {
		out = append(out, ln)
	}
	sort.Slice(out, func(i, j int) bool {
		if a, b := out[i].lang.Name == subject, out[j].lang.Name == subject; a != b {
			return a
		}
		return out[i].lang.Name < out[j].lang.Name
	})
	return out
}

// nativeWall is the median wall time of a lane's timed samples (0 when it
// took none): what the program costs natively, start-up included, as a
// counted run counts it.
func nativeWall(o runner.Outcome) time.Duration {
	var ns []int64
	for _, s := range o.Samples {
		if w := s.Fig(wire.WallNs); w > 0 {
			ns = append(ns, w)
		}
	}
	if len(ns) == 0 {
		return 0
	}
	return time.Duration(stats.Median(ns))
}

// shape makes step 0's or step 1's count job of r; false when the budget
// was spent before it (the cell is then marked over budget).
func (c *counting) shape(ctx context.Context, r *countRun, step int, j plan.Job, prog *progress) (plan.Job, bool) {
	ln := r.ln
	timeout := ln.count.timeout
	if step == 0 {
		prog.counting(r.bench, ln.lang.Name)
		r.start = time.Now()
		ln.count.cpus = j.Where.CPUs
		ln.count.timeout = firstCountTimeout(ln.out, c.p.Timeout)
		timeout = ln.count.timeout
		r.job = *ln.count.job
		r.job.Runs = 1
	} else {
		first := ln.out.Counts[0]
		r.job.Runs = c.p.CountRuns - 1
		// The first job took the whole process's count, the witness of
		// the cell's region (a count of the same program at the same
		// seed: the next job's would be the same).
		r.job.NoWitness = first.Fig(wire.InstructionsProcess) > 0
		if r.job.Region && first.Scope == wire.ScopeProcess {
			r.job.Region = false // the first run found the region not delimited: the sampler would find it again
		}
		timeout = min(timeout, runner.CountTimeoutAfter(time.Duration(first.WallNs)))
	}
	timeout, ok := c.withinBudget(r.countTask, r.job.Runs, timeout)
	if !ok {
		if step == 1 {
			ln.out.Counts = append(ln.out.Counts, runner.Count{Status: wire.CountFailed, Scope: ln.out.Counts[0].Scope, Detail: fmt.Sprintf("over budget: --count-budget=%s was spent before its next counted run", c.p.CountBudget)})
		}
		c.done(r, prog)
		return j, false
	}
	r.job.TimeoutNs = timeout.Nanoseconds()
	job := r.job
	j.Job.Iters, j.Job.Warmup, j.Job.Count = 0, 0, &job // counted runs only, no timed sample
	r.sent = time.Now()
	return j, true
}

// take records step's outcome of r and says whether the cell is counted:
// after its first run, when that settles it, failed, or the run was
// interrupted; after the rest, always.
func (c *counting) take(ctx context.Context, r *countRun, step int, o runner.Outcome, prog *progress) bool {
	ln := r.ln
	counts := c.record(r, o)
	if step == 0 {
		ln.out.Counts = counts
		more := c.p.CountRuns - 1
		settled := !c.p.UpdateBaselines && judge.SettledByOne(cellOf(ln), r.entry)
		if settled || len(counts) == 0 || counts[0].Status != wire.CountOK || more <= 0 || ctx.Err() != nil {
			c.done(r, prog)
			return true
		}
		return false
	}
	for i := range counts {
		if counts[i].Detail == "" && !r.job.Region && ln.count.job.Region {
			counts[i].Detail = ln.out.Counts[0].Detail // why the first run was counted over the whole process
		}
	}
	ln.out.Counts = append(ln.out.Counts, counts...)
	c.done(r, prog)
	return true
}

// done closes a cell's counting: its time, its line.
func (c *counting) done(r *countRun, prog *progress) {
	if !r.start.IsZero() {
		r.ln.count.ns = time.Since(r.start).Nanoseconds()
	}
	prog.countDone(r.bench, r.ln, countLine(r.ln, r.entry))
}

// firstCountTimeout bounds a cell's first counted run: from its native
// time, or where nothing was timed (--count=only) from --timeout, the
// longest a native run could have taken, and then never over
// runner.DefaultCountTimeout.
func firstCountTimeout(o runner.Outcome, timeout time.Duration) time.Duration {
	if native := nativeWall(o); native > 0 {
		return runner.CountTimeout(native)
	}
	return min(runner.CountTimeout(timeout), runner.DefaultCountTimeout)
}

// record notes what one count job of r cost and took, and gives its
// counted runs (a failure, where it counted none).
func (c *counting) record(r *countRun, o runner.Outcome) []runner.Count {
	ln := r.ln
	if !r.sent.IsZero() { // not sent: the run was interrupted before it
		took := time.Since(r.sent)
		c.mu.Lock()
		c.spent += took
		if len(ln.out.Counts) == 0 {
			c.cells++
		}
		c.mu.Unlock()
	}
	if o.Env.Valgrind != "" {
		ln.out.Env.Valgrind = o.Env.Valgrind
	}
	if ln.out.ContainerID == "" {
		ln.out.ContainerID = o.ContainerID
	}
	if len(o.Counts) == 0 && o.Status != outcome.OK {
		return []runner.Count{{Status: wire.CountFailed, Detail: string(o.Status) + ": " + o.Detail}}
	}
	return o.Counts
}

// withinBudget bounds a job of runs counted runs by the budget left
// (--count-budget: the count lane's wall time, whatever its parallel jobs):
// each run gets at most its share of it. false when nothing is left: a
// cell with no count yet is then not counted.
func (c *counting) withinBudget(t countTask, runs int, timeout time.Duration) (time.Duration, bool) {
	b := c.p.CountBudget
	if b <= 0 {
		return timeout, true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	left := time.Until(c.deadline)
	if left <= 0 {
		if len(t.ln.out.Counts) == 0 {
			t.ln.count.job, t.ln.count.why = nil, fmt.Sprintf("over budget: --count-budget=%s was spent before this bench", b)
			c.overBudget(t.bench)
		}
		return 0, false
	}
	return min(timeout, left/time.Duration(max(runs, 1))), true
}

// overBudget notes a bench left uncounted (c.mu held).
func (c *counting) overBudget(bench string) {
	for _, b := range c.over {
		if b == bench {
			return
		}
	}
	c.over = append(c.over, bench)
}
