package harness

import (
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// --count's modes.
const (
	CountAuto = "auto" // count the subject (and --count-langs) beside timing it
	CountOff  = "off"
	CountOnly = "only" // count, take no timed sample
)

// NotCountedGuard is why a guard is not counted unless --count-guards asks:
// a guard is there for its memory peak, and its counts cost most of the
// catalogue's counting (README, "The count gate").
const NotCountedGuard = "guard: measured for its memory peak; --count-guards to count"

// NotTimedNotCounted is why, under --count=only, a language that is
// neither the subject nor in --count-langs is skipped: nothing of it is
// measured, so its cell says skipped rather than a time it never took.
const NotTimedNotCounted = "--count=only takes no timed sample and counts only the subject and --count-langs"

// countLane is what a lane's count lane holds besides the outcome's counts.
type countLane struct {
	asked   bool
	job     *wire.CountJob
	why     string        // not counted: why
	ns      int64         // what counting it cost
	cpus    string        // the CPU it was counted on
	timeout time.Duration // its first counted run's bound
}

// counting is the run's count lane: which languages it counts, on which
// CPUs, and what it has spent against the budget. The count lane's jobs
// run in parallel: mu guards what they add up.
type counting struct {
	p        *Plan
	langs    map[string]bool
	idle     bool     // this pass counts nothing (an --update-baselines pass before the last)
	cpus     []string // one per count job, as the last count lane ran them
	wall     time.Duration
	deadline time.Time // when --count-budget is spent

	mu    sync.Mutex
	spent time.Duration
	cells int
	over  []string
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

// plan sets the lane's count job for bench b, or why it has none. The
// job's timeout is set when it runs (countCell), from the program's time.
func (c *counting) plan(ln *lane, b *suite.Bench) {
	if !c.langs[ln.lang.Name] || c.idle {
		return
	}
	ln.count.asked = true
	if isGuard(c.p, b) && !c.p.CountGuards {
		ln.count.why = NotCountedGuard
		return
	}
	job, why := runner.CountJobFor(ln.lang, b.Name, c.p.CountRuns, 0)
	if why != "" {
		ln.count.why = why
		return
	}
	job.NoCacheSim = c.p.CountNoCacheSim
	ln.count.job = &job
}

// isGuard says whether b is a guard: a bench of the guards folder or,
// in the seed's layout, which keeps its guards in micro/ beside the
// others, a bench with a program in the subject's language alone and no
// baseline (the seed's Hale-only guards: no siblings, no baseline).
func isGuard(p *Plan, b *suite.Bench) bool {
	if b.Kind == "guard" {
		return true
	}
	if p.Catalogue.Layout != suite.LayoutSeed || p.Base.Benches[b.Name] != nil || len(b.Sources) != 1 {
		return false
	}
	_, subjectOnly := b.Sources[p.SubjectLang.Name]
	return subjectOnly
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
		Valgrind: ln.out.Env.Valgrind, Instrument: v.Instrument, Process: v.Process, Witness: v.Witness, WallNs: ln.count.ns, CPUs: ln.count.cpus, TimeoutNs: ln.count.timeout.Nanoseconds()}
	if v.Baseline > 0 && v.Verdict != outcome.Incomparable {
		d := v.Delta
		cl.Delta = &d
	}
	for _, r := range ln.out.Counts {
		est := r.EstCycles
		if est == 0 {
			est = r.EstimatedCycles()
		}
		cl.Runs = append(cl.Runs, report.CountRunResult{Status: r.Status, Detail: r.Detail, Scope: r.Scope, Ir: r.Ir, EstCycles: est,
			Instrument: r.Instrument, WallNs: r.WallNs, Figures: r.Figures})
	}
	return cl
}

// report is the run's count block; nil when counting was off.
func (c *counting) report(valgrind string) *report.Count {
	p := c.p
	if p.Count == CountOff {
		return nil
	}
	rc := &report.Count{Mode: p.Count, Runs: p.CountRuns, OverBudget: c.over, Valgrind: valgrind, NoCacheSim: p.CountNoCacheSim,
		Target: p.SubjectLang.CountTarget, CostSeconds: c.spent.Seconds(), Cells: c.cells,
		Jobs: len(c.cpus), CPUs: c.cpus, WallSeconds: c.wall.Seconds(), Guards: p.CountGuards}
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
func checkCountLangs(list string, langs []suite.Language) ([]string, error) {
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
	if o.CountJobs < 0 {
		return o, fmt.Errorf("--count-jobs=%d: cannot be negative (0: one per CPU)", o.CountJobs)
	}
	if o.Count == CountOff && (o.CountLangs != "" || o.CountBudget > 0 || o.CountJobs > 0 || o.CountGuards) {
		return o, errors.New("--count-langs, --count-budget, --count-jobs and --count-guards need counting: drop them or --count=off")
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
	fmt.Fprintf(log, "counting: %d cells counted under Valgrind in %.1f s (%.1f s of counting over %d parallel jobs)", c.cells, c.wall.Seconds(), c.spent.Seconds(), len(c.cpus))
	if len(c.over) > 0 {
		fmt.Fprintf(log, "; %d benches left uncounted over --count-budget=%s", len(c.over), c.p.CountBudget)
	}
	fmt.Fprintln(log)
}

// updateCounts records the subject's stable counts of a pass in the
// baselines (count fields alone: judge.UpdateCounts); an unstable or
// failed cell is not recorded, so counts never gate it.
func (r *run) updateCounts(pass []*benchRun) error {
	p, subj := r.p, r.p.SubjectLang.Name
	bi := r.built.benches[subj]
	digest := bi.Digest
	if digest == "" {
		digest = bi.ID
	}
	m := map[string]judge.Counted{}
	for _, br := range pass {
		ln, v := br.lanes[subj], br.verdict.Counts[subj]
		if ln == nil || v == nil {
			continue
		}
		if v.Status != outcome.OK || v.Verdict == outcome.Unwitnessed {
			fmt.Fprintf(p.Log, "baselines: %s counts not recorded (%s: %s)\n", br.b.Name, v.Verdict, v.Why)
			continue
		}
		m[br.b.Name] = judge.Counted{Instructions: v.Median, EstCycles: v.EstCycles, Spread: v.Spread, Scope: v.Scope,
			Target: ln.lang.CountTarget, Valgrind: ln.out.Env.Valgrind, Instrument: v.Instrument, Digest: digest, Process: v.Process}
	}
	if len(m) == 0 {
		if p.Count == CountOnly {
			fmt.Fprintf(p.Log, "baselines: no %s counts to record; %s unchanged\n", subj, p.Baselines)
		}
		return nil
	}
	names, err := judge.UpdateCounts(p.Baselines, p.SubjectLang.Name, r.host.ImageArch, m, time.Now())
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

// countLine is a cell's count lane as a progress line: its counts or why
// none, judged against e (the subject's entry: one run may settle it).
func countLine(ln *lane, e *judge.Entry) string {
	s := judge.SummarizeAgainst(cellOf(ln), e)
	if s.Status != outcome.OK && s.Status != outcome.CountUnstable {
		return string(s.Status) + ": " + s.Why
	}
	runs := fmt.Sprintf("spread %.4f%%", 100*s.Spread)
	if len(s.Ir) == 1 {
		runs = "one run, the baseline's count exactly"
	}
	return fmt.Sprintf("%d instructions (%s), %s, counted in %.1f s on CPU %s", s.Median, s.Scope, runs, float64(ln.count.ns)/1e9, ln.count.cpus)
}
