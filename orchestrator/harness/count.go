package harness

import (
	"context"
	"errors"
	"fmt"
	"github.com/hale-lang/halebench/orchestrator/baseline"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/status"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
)

// --count's modes.
const (
	CountAuto = "auto" // count the subject (and --count-langs) beside timing it
	CountOff  = "off"
	CountOnly = "only" // count, take no timed sample
)

// countLane is what a lane's count lane holds besides the outcome's counts.
type countLane struct {
	asked bool
	job   *wire.CountJob
	why   string // not counted: why
	ns    int64  // what counting it cost
}

// counting is the run's count lane: which languages it counts, and what
// it has spent against the budget.
type counting struct {
	p     *Plan
	langs map[string]bool
	spent time.Duration
	cells int
	over  []string
	idle  bool // this pass counts nothing (an --update-baselines pass before the last)
}

func newCounting(p *Plan) *counting {
	c := &counting{p: p, langs: map[string]bool{}}
	if p.Count == CountOff {
		return c
	}
	c.langs[p.SubjectLang.Name] = true
	for _, l := range p.CountedLangs {
		c.langs[l] = true
	}
	return c
}

// plan sets the lane's count job for bench unit, or why it has none.
func (c *counting) plan(ln *lane, unit string) {
	if !c.langs[ln.lang.Name] || c.idle {
		return
	}
	ln.count.asked = true
	job, why := runner.CountJobTimed(ln.lang, unit, c.p.CountRuns, c.p.Timeout)
	if why != "" {
		ln.count.why = why
		return
	}
	ln.count.job = &job
}

// count runs the count jobs of a bench's lanes, after their timed
// samples; once the budget is spent a bench is left uncounted (said in
// its cells and in the report). A count job's failure is the count
// lane's (count_failed): it never changes the lane's timed status.
func (c *counting) count(ctx context.Context, env Env, bench string, order []*lane, prog *progress) {
	for _, ln := range order {
		if ln.count.job == nil || ctx.Err() != nil {
			continue
		}
		job := *ln.count.job
		if b := c.p.CountBudget; b > 0 {
			left := b - c.spent
			if left <= 0 {
				ln.count.job, ln.count.why = nil, fmt.Sprintf("over budget: --count-budget=%s was spent before this bench", b)
				c.overBudget(bench)
				continue
			}
			if per := left / time.Duration(job.Runs); per.Nanoseconds() < job.TimeoutNs {
				job.TimeoutNs = per.Nanoseconds()
			}
		}
		prog.counting(bench, ln.lang.Name)
		j := ln.base
		j.Iters, j.Warmup, j.Count = 0, 0, &job
		start := time.Now()
		o := env.Engine.Sample(ctx, ln.where, j)
		took := time.Since(start)
		c.spent += took
		c.cells++
		ln.count.ns = took.Nanoseconds()
		ln.out.Counts = o.Counts
		if o.Env.Valgrind != "" {
			ln.out.Env.Valgrind = o.Env.Valgrind
		}
		if len(o.Counts) == 0 && o.Status != status.OK {
			ln.out.Counts = []runner.Count{{Status: wire.CountFailed, Detail: string(o.Status) + ": " + o.Detail}}
		}
		if ln.out.ContainerID == "" {
			ln.out.ContainerID = o.ContainerID
		}
	}
}

func (c *counting) overBudget(bench string) {
	if n := len(c.over); n == 0 || c.over[n-1] != bench {
		c.over = append(c.over, bench)
	}
}

// cellOf is the judge's view of a lane's count lane, read from its
// outcome's counts.
func cellOf(ln *lane) judge.CountCell {
	if !ln.count.asked {
		return judge.CountCell{}
	}
	return judge.CountCell{Asked: true, NotCounted: ln.count.why, Runs: ln.out.Counts, Target: ln.lang.CountTarget, Valgrind: ln.out.Env.Valgrind}
}

// laneCount is a lane's count lane as the report keeps it.
func laneCount(ln *lane, v *judge.CountCheck) *report.CountLane {
	if !ln.count.asked || v == nil {
		return nil
	}
	cl := &report.CountLane{Runs: []report.CountRunResult{}, Scope: v.Scope, Ir: v.Median, EstCycles: v.EstCycles, Spread: v.Spread,
		Verdict: v.Verdict, Reason: v.Why, Baseline: v.Baseline, Band: v.Band, Target: ln.lang.CountTarget,
		Valgrind: ln.out.Env.Valgrind, WallNs: ln.count.ns}
	if v.Baseline > 0 && v.Verdict != status.Incomparable {
		d := v.Delta
		cl.Delta = &d
	}
	for _, r := range ln.out.Counts {
		est := r.EstCycles
		if est == 0 {
			est = r.EstimatedCycles()
		}
		cl.Runs = append(cl.Runs, report.CountRunResult{Status: r.Status, Detail: r.Detail, Scope: r.Scope, Ir: r.Ir, EstCycles: est, WallNs: r.WallNs})
	}
	return cl
}

// report is the run's count block; nil when counting was off.
func (c *counting) report(valgrind string) *report.Count {
	p := c.p
	if p.Count == CountOff {
		return nil
	}
	rc := &report.Count{Mode: p.Count, Runs: p.CountRuns, OverBudget: c.over, Valgrind: valgrind,
		Target: p.SubjectLang.CountTarget, CostSeconds: c.spent.Seconds(), Cells: c.cells}
	for _, l := range p.Languages {
		if c.langs[l.Name] {
			rc.Languages = append(rc.Languages, l.Name)
		}
	}
	sort.Strings(rc.Languages)
	if p.CountBudget > 0 {
		rc.Budget = p.CountBudget.String()
	}
	return rc
}

// checkCountLangs reads --count-langs: known languages, each one the run
// measures.
func checkCountLangs(list string, langs []toolchain.Language) ([]string, error) {
	var out []string
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if !hasLang(langs, name) {
			return nil, fmt.Errorf("--count-langs=%s: %s is not among the run's languages (%s); add it to --langs", list, name, joinNames(langs))
		}
		out = append(out, name)
	}
	return out, nil
}

// countDefaults checks the count lane's options and fills in their
// defaults; --count=only takes no timed sample (no iterations, warm-up or
// confirmation).
func countDefaults(o Options) (Options, error) {
	switch o.Count {
	case "":
		o.Count = CountAuto
	case CountAuto, CountOff, CountOnly:
	default:
		return o, fmt.Errorf("--count=%s: want auto, off or only", o.Count)
	}
	if o.CountRuns == 0 {
		o.CountRuns = judge.MinCountedRuns
	}
	if o.CountRuns < judge.MinCountedRuns || o.CountRuns > 20 {
		return o, fmt.Errorf("--count-runs=%d: want %d to 20 (the determinism rule compares at least %d)", o.CountRuns, judge.MinCountedRuns, judge.MinCountedRuns)
	}
	if o.CountBudget < 0 {
		return o, fmt.Errorf("--count-budget=%s: cannot be negative", o.CountBudget)
	}
	if o.Count == CountOff && (o.CountLangs != "" || o.CountBudget > 0) {
		return o, errors.New("--count-langs and --count-budget need counting: drop them or --count=off")
	}
	if o.Count == CountOnly {
		o.Iters, o.Warmup, o.Confirm = 0, 0, 0
	}
	return o, nil
}

// sayCost puts what counting cost on the log (stderr).
func (c *counting) sayCost(log io.Writer) {
	if c.p.Count == CountOff {
		return
	}
	fmt.Fprintf(log, "counting: %d cells counted under Valgrind in %.1f s", c.cells, c.spent.Seconds())
	if len(c.over) > 0 {
		fmt.Fprintf(log, "; %d benches left uncounted over --count-budget=%s", len(c.over), c.p.CountBudget)
	}
	fmt.Fprintln(log)
}

// updateCounts records the subject's stable counts of a pass in the
// baselines (count fields alone: baseline.UpdateCounts); an unstable or
// failed cell is not recorded, so counts never gate it.
func (r *run) updateCounts(pass []*benchRun) error {
	p, subj := r.p, r.p.SubjectLang.Name
	bi := r.built.benches[subj]
	digest := bi.Digest
	if digest == "" {
		digest = bi.ID
	}
	m := map[string]baseline.Counted{}
	for _, br := range pass {
		ln, v := br.lanes[subj], br.verdict.Counts[subj]
		if ln == nil || v == nil {
			continue
		}
		if v.Status != status.OK {
			fmt.Fprintf(p.Log, "baselines: %s counts not recorded (%s: %s)\n", br.b.Name, v.Status, v.Why)
			continue
		}
		m[br.b.Name] = baseline.Counted{Instructions: v.Median, EstCycles: v.EstCycles, Spread: v.Spread, Scope: v.Scope,
			Target: ln.lang.CountTarget, Valgrind: ln.out.Env.Valgrind, Digest: digest}
	}
	if len(m) == 0 {
		if p.Count == CountOnly {
			fmt.Fprintf(p.Log, "baselines: no %s counts to record; %s unchanged\n", subj, p.Baselines)
		}
		return nil
	}
	names, err := baseline.UpdateCounts(p.Baselines, p.SubjectLang.Name, m, time.Now())
	if err != nil {
		return err
	}
	if r.rebaseline == nil {
		r.rebaseline = &report.Rebaseline{Runs: p.Runs, Benches: map[string]report.RebaselineBench{}}
	}
	r.rebaseline.CountsRecorded = names
	fmt.Fprintf(p.Log, "baselines: counts of %d benches of %s written in %s (time and memory figures untouched)\n", len(names), subj, p.Baselines)
	return nil
}

// countLine is a counted-only cell's progress line: its counts or why none.
func countLine(ln *lane) string {
	s := judge.Summarize(cellOf(ln))
	if s.Status != status.OK && s.Status != status.CountUnstable {
		return string(s.Status) + ": " + s.Why
	}
	return fmt.Sprintf("%d instructions (%s), spread %.4f%%, counted in %.1f s", s.Median, s.Scope, 100*s.Spread, float64(ln.count.ns)/1e9)
}
