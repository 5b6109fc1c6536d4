package plan

import (
	"context"
	"time"
)

// Stop is why Exec stopped.
type Stop string

const (
	Finished   Stop = "max-rounds"  // the schedule ran all its rounds
	Resolved   Stop = "resolved"    // no unit was left live
	Stopped    Stop = "interrupted" // the context was cancelled before a round
	OverBudget Stop = "budget"      // Budget was spent before a round
)

// Exec runs a Schedule over units of jobs. Each step sends one sample of
// its job (Iters 1); a job's first round also takes its warm-ups and its
// counts (Warmup and Count as the job has them), later rounds neither.
// Shape, where set, has the last word on a step's job (the count lane's
// take no sample).
type Exec struct {
	Sampler  Sampler
	Schedule Schedule
	Units    [][]Job
	// Live, when set, says before each round whether a unit is still live
	// (one a Look resolved is not); a unit Take called done never is again.
	Live   func(unit int) bool
	Budget time.Duration // 0: none
	// Starting, when set, is told of each round (from 1) before it runs,
	// and of how many units are live; Sending of each step before it is sent.
	Starting func(round, live int)
	Sending  func(round int, s Step)
	// Take reads a step's result and says whether its unit is done: no
	// more of its jobs are sent, in this round or later.
	Take func(round int, s Step, r Result) (done bool)
	// Look, when set, runs after each round Looks names (from 1).
	Looks []int
	Look  func(round int)
	// Shape, when set, makes a step's job just before it is sent from the
	// one its unit plans (the count lane's later runs are shaped by what
	// its first run found); false sends nothing and ends the unit, and
	// Take is not called for the step.
	Shape func(round int, s Step, j Job) (Job, bool)
	// CPUs, when set, runs a round's units side by side: each CPU takes
	// the next unit in the round's order and sends that unit's steps, in
	// order, pinned to it (Where.CPUs), one unit at a time per CPU (the
	// count lane, whose counts do not depend on what runs beside them).
	// Sending, Shape and Take are then called from one goroutine per CPU;
	// one unit's calls come in order, from one of them.
	CPUs []string
}

// Run runs the rounds until the schedule's last, until no unit is live,
// until ctx is cancelled or the budget spent, in that order of checks; it
// returns why it stopped and how many rounds it started. A step reached
// once ctx is cancelled is not sent: Take gets Interrupted().
func (e *Exec) Run(ctx context.Context) (Stop, int) {
	start := time.Now()
	done := make([]bool, len(e.Units))
	isLook := map[int]bool{}
	for _, l := range e.Looks {
		isLook[l] = true
	}
	rounds := 0
	for round := 1; ; round++ {
		if round > e.Schedule.Rounds() {
			return Finished, rounds
		}
		for u := range done {
			done[u] = done[u] || e.Live != nil && !e.Live(u)
		}
		live := liveUnits(done)
		switch {
		case len(live) == 0:
			return Resolved, rounds
		case ctx.Err() != nil:
			return Stopped, rounds
		case e.Budget > 0 && time.Since(start) > e.Budget:
			return OverBudget, rounds
		}
		rounds = round
		if e.Starting != nil {
			e.Starting(round, len(live))
		}
		e.round(ctx, round, live, done)
		if isLook[round] && e.Look != nil {
			e.Look(round)
		}
	}
}

// round sends one round's steps; a unit done in it sends nothing more.
func (e *Exec) round(ctx context.Context, round int, live []int, done []bool) {
	order := e.Schedule.Order(live, func(u int) int { return len(e.Units[u]) })
	if len(e.CPUs) == 0 {
		for _, s := range order {
			e.step(ctx, round, s, "", done)
		}
		return
	}
	byUnit, units := map[int][]Step{}, []int{}
	for _, s := range order {
		if byUnit[s.Unit] == nil {
			units = append(units, s.Unit)
		}
		byUnit[s.Unit] = append(byUnit[s.Unit], s)
	}
	onCPUs(e.CPUs, len(units), func(cpu string, i int) {
		for _, s := range byUnit[units[i]] {
			e.step(ctx, round, s, cpu, done) // done[u] is only this goroutine's
		}
	})
}

// step sends one step's job (on cpu, when one is given) unless its unit is
// done, and hands the result to Take.
func (e *Exec) step(ctx context.Context, round int, s Step, cpu string, done []bool) {
	if done[s.Unit] {
		return
	}
	j := stepJob(e.Units[s.Unit][s.Job], round)
	if cpu != "" {
		j.Where.CPUs = cpu
	}
	r := Interrupted()
	if ctx.Err() == nil {
		if e.Shape != nil {
			var ok bool
			if j, ok = e.Shape(round, s, j); !ok {
				done[s.Unit] = true
				return
			}
		}
		if e.Sending != nil {
			e.Sending(round, s)
		}
		r = Send(ctx, e.Sampler, j)
	}
	done[s.Unit] = e.Take(round, s, r)
}

// stepJob is one sample of j in round; the first round keeps its
// warm-ups and its counts.
func stepJob(j Job, round int) Job {
	j.Job.Iters = 1
	if round > 1 {
		j.Job.Warmup, j.Job.Count = 0, nil
	}
	return j
}

func liveUnits(done []bool) []int {
	var out []int
	for u, d := range done {
		if !d {
			out = append(out, u)
		}
	}
	return out
}
