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
	plan.OnCPUs(cpus, len(tasks), func(cpu string, i int) { c.countCell(ctx, env, tasks[i], cpu, prog) })
	c.wall += time.Since(start)
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

// countCell counts one cell on cpu: one counted run bounded by the
// program's native time (or, where nothing was timed, by --timeout), then
// the rest of --count-runs, each bounded by the first's time — unless the
// first settles the verdict (judge.SettledByOne) outside an
// --update-baselines, which records from at least two.
func (c *counting) countCell(ctx context.Context, env Env, t countTask, cpu string, prog *progress) {
	ln := t.ln
	prog.counting(t.bench, ln.lang.Name)
	start := time.Now()
	ln.count.cpus = cpu
	ln.count.timeout = firstCountTimeout(ln.out, c.p.Timeout)
	job := *ln.count.job
	job.Runs = 1
	first, ok := c.countJob(ctx, env, t, cpu, job, ln.count.timeout)
	if !ok {
		prog.countDone(t.bench, ln, countLine(ln, t.entry))
		return
	}
	ln.out.Counts = first
	more := c.p.CountRuns - 1
	if c.p.UpdateBaselines || !judge.SettledByOne(cellOf(ln), t.entry) {
		if r := first[0]; r.Status == wire.CountOK && more > 0 && ctx.Err() == nil {
			job.Runs = more
			// The first job took the whole process's count, the witness
			// of the cell's region (a count of the same program at the
			// same seed: the next job's would be the same).
			job.NoWitness = r.Fig(wire.InstructionsProcess) > 0
			if job.Region && r.Scope == wire.ScopeProcess {
				job.Region = false // the first run found the region not delimited: the sampler would find it again
			}
			rest, ok := c.countJob(ctx, env, t, cpu, job, min(ln.count.timeout, runner.CountTimeoutAfter(time.Duration(r.WallNs))))
			if !ok {
				rest = []runner.Count{{Status: wire.CountFailed, Scope: r.Scope, Detail: fmt.Sprintf("over budget: --count-budget=%s was spent before its next counted run", c.p.CountBudget)}}
			}
			for i := range rest {
				if rest[i].Detail == "" && !job.Region && ln.count.job.Region {
					rest[i].Detail = r.Detail // why the first run was counted over the whole process
				}
			}
			ln.out.Counts = append(ln.out.Counts, rest...)
		}
	}
	ln.count.ns = time.Since(start).Nanoseconds()
	prog.countDone(t.bench, ln, countLine(ln, t.entry))
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

// countJob runs one count job of a cell on cpu, each run bounded by
// timeout and by the budget left; false when the budget was spent before
// it (the cell is then marked over budget if it has no count yet).
func (c *counting) countJob(ctx context.Context, env Env, t countTask, cpu string, job wire.CountJob, timeout time.Duration) ([]runner.Count, bool) {
	ln := t.ln
	timeout, ok := c.withinBudget(t, job.Runs, timeout)
	if !ok {
		return nil, false
	}
	job.TimeoutNs = timeout.Nanoseconds()
	j := ln.base
	j.Iters, j.Warmup, j.Count = 0, 0, &job
	w := ln.where
	w.CPUs = cpu
	start := time.Now()
	o := plan.Send(ctx, env.Engine, plan.Job{Cell: plan.Cell{Bench: t.bench, Lang: ln.lang.Name}, Where: w, Job: j}).Outcome
	took := time.Since(start)
	c.mu.Lock()
	c.spent += took
	if len(ln.out.Counts) == 0 {
		c.cells++
	}
	c.mu.Unlock()
	if o.Env.Valgrind != "" {
		ln.out.Env.Valgrind = o.Env.Valgrind
	}
	if ln.out.ContainerID == "" {
		ln.out.ContainerID = o.ContainerID
	}
	if len(o.Counts) == 0 && o.Status != outcome.OK {
		return []runner.Count{{Status: wire.CountFailed, Detail: string(o.Status) + ": " + o.Detail}}, true
	}
	return o.Counts, true
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
