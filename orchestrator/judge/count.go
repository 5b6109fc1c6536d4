package judge

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/outcome"
)

// The determinism rule: a cell is judged by counts only when at least
// MinCountedRuns runs were counted and they agree within StableSpread
// (relative: (max − min) / min). A deterministic program repeats to the
// instruction; one that does not (threads, clock-driven work) is
// count_unstable, reported with its spread and not gated by counts.
const (
	MinCountedRuns = 2
	StableSpread   = 0.0001
)

// CountCell is one language's count lane on a bench: whether counting
// applied to it, why it was not counted, and what was counted with what.
type CountCell struct {
	Asked      bool
	NotCounted string // why not, when Asked and nothing could be counted
	Runs       []wire.Count
	Target     string // the CPU target of the counted build
	Valgrind   string // `valgrind --version` in its image
}

// Counts is what a cell's counted runs say together.
type Counts struct {
	Status    outcome.Status // ok, count_unstable, count_failed or not_counted
	Why       string
	Scope     string
	Ir        []uint64 // every run's, in order
	Median    uint64   // the cell's instructions: the lower middle run's
	EstCycles uint64   // the same run's estimated cycles
	Spread    float64
	// Instrument is what counted the runs (wire.InstrumentCallgrind, …).
	Instrument string
	// Process is the whole process's instructions, the region count's
	// witness (wire.InstructionsProcess; 0: none was taken).
	Process uint64
}

// Summarize applies the determinism rule to a cell's counted runs.
func Summarize(c CountCell) Counts {
	var s Counts
	if c.NotCounted != "" {
		return Counts{Status: outcome.NotCounted, Why: c.NotCounted}
	}
	var ok []wire.Count
	scopes := map[string]bool{}
	for _, r := range c.Runs {
		s.Ir = append(s.Ir, r.Ir)
		switch {
		case r.Status != wire.CountOK:
			s.Why = r.Detail
			if s.Why == "" {
				s.Why = "a counted run ended " + r.Status
			}
		case r.Ir == 0:
			s.Why = "a counted run counted no instruction"
		default:
			ok = append(ok, r)
			scopes[r.Scope] = true
		}
	}
	switch {
	case s.Why != "":
		s.Status = outcome.CountFailed
		return s
	case len(ok) < MinCountedRuns:
		s.Status, s.Why = outcome.CountFailed, fmt.Sprintf("%d counted runs, the determinism rule needs %d", len(ok), MinCountedRuns)
		return s
	case len(scopes) > 1:
		s.Status, s.Why = outcome.CountFailed, "the counted runs covered different scopes"
		return s
	case !sameInstrument(ok):
		s.Status, s.Why = outcome.CountFailed, "the counted runs were counted by different instruments"
		return s
	}
	s.Instrument = ok[0].Instrument
	s.Process = processOf(ok)
	sort.Slice(ok, func(i, j int) bool { return ok[i].Ir < ok[j].Ir })
	mid := ok[(len(ok)-1)/2]
	s.Scope, s.Median, s.EstCycles = mid.Scope, mid.Ir, mid.EstCycles
	if s.EstCycles == 0 {
		s.EstCycles = mid.EstimatedCycles()
	}
	lo, hi := ok[0].Ir, ok[len(ok)-1].Ir
	s.Spread = float64(hi-lo) / float64(lo)
	s.Status = outcome.OK
	if threaded(ok) {
		s.Status = outcome.CountUnstable
		s.Why = fmt.Sprintf("the program started a second thread: its count depends on how the threads interleaved (runs differ by %.4f%%)", 100*s.Spread)
		return s
	}
	if s.Spread > StableSpread {
		s.Status = outcome.CountUnstable
		s.Why = fmt.Sprintf("counted runs differ by %.4f%% (%d to %d instructions), over the %.2f%% the determinism rule allows", 100*s.Spread, lo, hi, 100*StableSpread)
	}
	return s
}

// CountCheck is the count lane's verdict on a cell.
type CountCheck struct {
	Counts
	Verdict  outcome.Status // ok, regression, improved, no_baseline, incomparable, or the Counts' status
	Baseline uint64         // the baseline's instructions (0: none)
	Delta    int64          // instructions over the baseline's
	Ratio    float64        // instructions / the baseline's
	Band     float64        // the relative band it was held to
	// Witness says what of the instruction witness could not be checked
	// ("": it was, or there was nothing to check); see InstrWitness.
	Witness string
}

// Count judges a cell's counts against a baseline entry (nil: none, as
// for a comparative, which counts never gate). Counts gate across
// machines: the baseline's Valgrind version, CPU target and scope must be
// this run's (else incomparable), the CPU model need not be.
func Count(c CountCell, e *Entry) CountCheck {
	v := CountCheck{Counts: SummarizeAgainst(c, e)}
	v.Verdict = v.Status
	if v.Status != outcome.OK {
		return v
	}
	if !e.HasCounts() {
		v.Verdict = outcome.NoBaseline
		return v
	}
	b, _ := Instructions.Baseline(e)
	v.Baseline, v.Band = e.Instructions, b.Band
	if d := countDifferences(e, c, v.Scope, v.Instrument); d != "" {
		v.Verdict, v.Why = outcome.Incomparable, "the baseline's counts were taken with "+d+": not judged"
		return v
	}
	x := Instructions.Judge(Values{Median: int64(v.Median)}, b, 0)
	v.Delta, v.Ratio, v.Verdict, v.Why = x.Median-x.Baseline, x.Ratio, x.Status, x.Why
	return v
}

// countDifferences names what differs between how the entry's counts and
// the cell's were taken ("" : nothing that matters).
func countDifferences(e *Entry, c CountCell, scope, instrument string) string {
	var d []string
	add := func(what, base, here string) {
		if base != here {
			d = append(d, fmt.Sprintf("%s %q (here %q)", what, base, here))
		}
	}
	add("Valgrind", e.ValgrindVersion, c.Valgrind)
	if !wire.IrComparable(e.CountInstrument, instrument) {
		add("instrument", e.CountInstrument, instrument)
	}
	add("target", e.CountTarget, c.Target)
	add("scope", e.CountScope, scope)
	return strings.Join(d, ", ")
}

// judgeCounts adds the count lane to a bench's verdict: every counted
// cell's counts, the subject's held to its entry, and a count regression
// of the subject makes the bench a regression (unless it failed worse).
func judgeCounts(v *Verdict, subject string, cells map[string]Cell, e *Entry) {
	for _, m := range All() {
		if c := v.Checks[m.Name]; c != nil && c.Status == m.Regressed {
			v.Flagged = append(v.Flagged, m.Name)
		}
	}
	for lang, c := range cells {
		if !c.Count.Asked {
			continue
		}
		cc := CountCheck{Counts: Summarize(c.Count)}
		cc.Verdict = cc.Status // a comparative's counts are reported, never gated
		var ce *Entry
		if lang == subject {
			cc, ce = Count(c.Count, e), e
		}
		witnessCount(&cc, c, ce)
		v.Counts[lang] = &cc
	}
	cc := v.Counts[subject]
	if cc == nil || v.Status.Severity() == outcome.Fails {
		return
	}
	if cc.Verdict == outcome.Unwitnessed {
		unwitnessedCount(v, subject, cc.Why)
		return
	}
	if s := cells[subject]; s.Status == outcome.OK && s.Median == 0 {
		// Not timed (--count=only): the counts are all the bench has.
		v.Status = cc.Verdict
	}
	if v.Status == outcome.Emulated && cc.Verdict != outcome.Regression {
		// The times stay unjudged; what the counts said is said beside.
		if cc.Baseline > 0 {
			v.Detail[subject] += fmt.Sprintf("; instructions gated: %s, %d against the baseline's %d (%+.2f%%)", cc.Verdict, cc.Median, cc.Baseline, 100*(cc.Ratio-1))
		} else {
			v.Detail[subject] += fmt.Sprintf("; instructions %s", cc.Verdict)
		}
	}
	if v.Status == outcome.IncomparableMachine && (cc.Verdict == outcome.OK || cc.Verdict == outcome.Improved) {
		// Times from another machine do not gate; its count did, and held.
		v.Status = cc.Verdict
		v.Detail[subject] += fmt.Sprintf("; instructions gated: %s, %d against the baseline's %d (%+.2f%%)", cc.Verdict, cc.Median, cc.Baseline, 100*(cc.Ratio-1))
	}
	if cc.Verdict != outcome.Regression {
		return
	}
	v.Flagged = append(v.Flagged, Instructions.Name)
	v.Status, v.Cells[subject] = outcome.Regression, outcome.Regression
	if d := v.Detail[subject]; d != "" {
		v.Detail[subject] = d + "; " + cc.Why
	} else {
		v.Detail[subject] = cc.Why
	}
}

// processOf is the witness's whole-process count the runs carry: one per
// count job, on each of its runs (a later job of the cell takes none);
// the largest, which the region is held under.
func processOf(runs []wire.Count) uint64 {
	var p uint64
	for _, r := range runs {
		if v := r.Fig(wire.InstructionsProcess); v > 0 && uint64(v) > p {
			p = uint64(v)
		}
	}
	return p
}

// unwitnessedCount makes the bench unwitnessed by its subject's count,
// which does not gate; a regression of the time stands.
func unwitnessedCount(v *Verdict, subject, why string) {
	if v.Status.Severity() < outcome.Regresses {
		v.Status, v.Cells[subject] = outcome.Unwitnessed, outcome.Unwitnessed
	}
	if d := v.Detail[subject]; d != "" {
		v.Detail[subject] = d + "; " + why
	} else {
		v.Detail[subject] = why
	}
}

// witnessCount holds a cell's counts cc to their witness (InstrWitness):
// against e (nil: none), and the cell's timed region where it was timed.
// Counts that disagree with it are unwitnessed, whatever they would have
// said against the baseline.
func witnessCount(cc *CountCheck, c Cell, e *Entry) {
	var timed int64
	if c.measured() {
		timed = c.Median
	}
	w := InstrWitness(cc.Counts, timed, e)
	switch {
	case w.Why != "":
		cc.Verdict, cc.Why = outcome.Unwitnessed, w.Why
	case w.Note != "":
		cc.Witness = w.Note
	}
}

// threaded says whether a run started a second thread: agreeing counts of
// such a program are luck, not determinism.
func threaded(runs []wire.Count) bool {
	for _, r := range runs {
		if r.Threads {
			return true
		}
	}
	return false
}

// sameInstrument says whether every run was counted by one instrument.
func sameInstrument(runs []wire.Count) bool {
	for _, r := range runs {
		if r.Instrument != runs[0].Instrument {
			return false
		}
	}
	return true
}
