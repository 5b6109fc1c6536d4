package judge

import (
	"fmt"
	"sort"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/stats"
)

// Parity verdicts.
const (
	ParityOK       = "ok"
	ParityMismatch = "mismatch"
	ParitySingle   = "single" // one sibling had a check: nothing to compare
	ParityNone     = "none"   // no sibling had a check
)

// Parity compares the check lines of a bench's siblings (language -> check,
// only those that ran cleanly). The value most siblings printed is taken as
// the workload's; the languages that printed another are returned. With a
// tie at the top nobody can be trusted and every sibling is returned.
func Parity(checks map[string]string) (verdict string, mismatched []string, agreed string) {
	counts := map[string]int{}
	for _, c := range checks {
		if c != "" {
			counts[c]++
		}
	}
	switch len(counts) {
	case 0:
		return ParityNone, nil, ""
	case 1:
		for c := range counts {
			agreed = c
		}
		if len(checks) == 1 {
			return ParitySingle, nil, agreed
		}
		// A sibling with no check at all cannot be compared: flag it.
		for l, c := range checks {
			if c == "" {
				mismatched = append(mismatched, l)
			}
		}
		sort.Strings(mismatched)
		if len(mismatched) > 0 {
			return ParityMismatch, mismatched, agreed
		}
		return ParityOK, nil, agreed
	}
	best, tie := "", false
	for c, n := range counts {
		switch {
		case best == "" || n > counts[best]:
			best, tie = c, false
		case n == counts[best]:
			tie = true
		}
	}
	for l, c := range checks {
		if tie || c != best {
			mismatched = append(mismatched, l)
		}
	}
	sort.Strings(mismatched)
	if tie {
		best = ""
	}
	return ParityMismatch, mismatched, best
}

// Cell is one language's result on a bench, as the judge needs it.
type Cell struct {
	Status outcome.Status
	Check  string
	// Median and Samples are its time (MetricTime's figure): what the
	// cell's status and the languages' ratios are about; 0 and none when
	// nothing was measured.
	Median  int64
	Samples []int64 // every sample, confirmation included
	// Figures are every figure its samples carry, by wire name; time's
	// are Median and Samples.
	Figures MetricCell
	Count   CountCell // the count lane (Asked false: not counted)
}

// measured says whether the cell has a number that can be compared.
func (c Cell) measured() bool {
	return (c.Status == outcome.OK || c.Status == outcome.StatusParityMismatch) && c.Median > 0
}

// Metrics is what the cell's samples carry, as the metrics read it: its
// figures, with time's from Median and Samples.
func (c Cell) Metrics() MetricCell {
	out := MetricCell{}
	for name, v := range c.Figures {
		out[name] = v
	}
	if c.Median > 0 || len(c.Samples) > 0 {
		out[MetricTime.Of] = Values{Median: c.Median, Samples: c.Samples}
	}
	return out
}

// Gate is how the subject is gated: its baseline entry (nil: none), the
// significance level, and why the baseline's machine cannot gate this one
// ("" : it can).
type Gate struct {
	Entry        *Entry
	Alpha        float64
	Incomparable string
	// Emulated says how the subject ran under an emulator ("": natively):
	// its times and memory are the emulator's and never gate, whatever
	// the baseline; its counts (the guest's instructions) still do.
	Emulated string
	// NoBaseline says why the baseline holds nothing for this run when
	// it holds figures of another kind (recorded on another architecture).
	NoBaseline string
}

// Check is one gated metric's verdict (MetricCheck).
type Check = MetricCheck

// Time judges the subject's elapsed samples against the entry, by the
// time metric's rule (the statistical gate; see MetricTime).
func Time(c Cell, e *Entry, alpha float64) Check {
	b, _ := MetricTime.Baseline(e)
	return MetricTime.Judge(MetricTime.Read(c.Metrics()), b, alpha)
}

// MemMinDeltaKB is the least growth of memory that can regress.
const MemMinDeltaKB = MetricMemMinDeltaKB

// Memory judges the subject's memory against the entry's memory baseline,
// by the memory metric's rule; nil where the entry has none halebench
// recorded.
func Memory(c Cell, e *Entry, alpha float64) *Check {
	return gateOne(MetricMemory, c.Metrics(), e, alpha)
}

// gateOne is one sampled metric's verdict on a cell; nil where the cell
// has no value of it or the entry no baseline.
func gateOne(m *Metric, c MetricCell, e *Entry, alpha float64) *Check {
	here := m.Read(c)
	b, ok := m.Baseline(e)
	if !ok || here.Median <= 0 {
		return nil
	}
	v := m.Judge(here, b, alpha)
	return &v
}

// gate is every sampled metric's verdict on the subject's cell, by name.
func gate(c Cell, e *Entry, alpha float64) map[string]*Check {
	out := map[string]*Check{}
	for _, m := range All() {
		if m.Sampled() {
			if v := gateOne(m, c.Metrics(), e, alpha); v != nil {
				out[m.Name] = v
			}
		}
	}
	return out
}

// Suspect says whether the subject's cell is over a band of its baseline
// in any sampled metric: a cell to measure again before the verdict.
func Suspect(c Cell, g Gate) bool {
	e := g.Entry
	if e == nil || e.ElapsedNs <= 0 || g.Incomparable != "" || g.Emulated != "" || !c.measured() {
		return false
	}
	for _, m := range All() {
		if !m.Sampled() {
			continue
		}
		here := m.Read(c.Metrics())
		if b, ok := m.Baseline(e); ok && here.Median > 0 && float64(here.Median) > float64(b.Median)*(1+b.Band) {
			return true
		}
	}
	return false
}

func pct(ratio float64) string { return Pct(ratio) }

func pctBand(b float64) string { return PctBand(b) }

// Verdict is what the judge decided of one bench.
type Verdict struct {
	// Status is the bench's: the subject's gate outcome, or why it has none.
	Status outcome.Status
	Parity string
	Check  string // the workload's check, as most siblings printed it
	// Cells holds each language's status after judging (a parity mismatch
	// or a regression replaces ok) and why, where it changed.
	Cells  map[string]outcome.Status
	Detail map[string]string
	// Ratios holds each measured comparative's median over the subject's
	// (> 1: the subject is faster).
	Ratios map[string]float64
	// Checks holds the gate's verdict on the subject by each sampled
	// metric, by name (none: not gated).
	Checks map[string]*Check
	// Counts holds each counted language's count lane (the subject's held
	// to its baseline); Flagged names the metrics that regressed (time,
	// memory, instructions).
	Counts  map[string]*CountCheck
	Flagged []string
	// Witness says why the subject's gated time was not held to its
	// witness ("": it was, or nothing gated it); see Witness.
	Witness string
}

// Bench judges one bench from its cells (language -> result) and how its
// subject is gated.
func Bench(subject string, cells map[string]Cell, g Gate) Verdict {
	v, checks := Verdict{Cells: map[string]outcome.Status{}, Detail: map[string]string{}, Ratios: map[string]float64{}, Counts: map[string]*CountCheck{}}, map[string]string{}
	for lang, c := range cells {
		v.Cells[lang] = c.Status
		if c.Status == outcome.OK {
			checks[lang] = c.Check
		}
	}
	var mismatched []string
	v.Parity, mismatched, v.Check = Parity(checks)
	for _, lang := range mismatched {
		c := cells[lang]
		c.Status = outcome.StatusParityMismatch
		cells[lang] = c
		v.Cells[lang] = outcome.StatusParityMismatch
		v.Detail[lang] = fmt.Sprintf("check %q differs from the siblings' %q", c.Check, v.Check)
	}

	subj, ok := cells[subject]
	if ok && subj.measured() {
		for lang, c := range cells {
			if lang != subject && c.measured() {
				v.Ratios[lang] = stats.Ratio(c.Median, subj.Median)
			}
		}
	}
	subjectStatus(&v, subject, subj, ok, cells, g)
	judgeCounts(&v, subject, cells, g.Entry)
	witness(&v, subject, cells, g)
	return v
}

// subjectStatus is the bench's status from its subject's cell subj (ok:
// the bench has one) and how it is gated, with the detail that says why.
func subjectStatus(v *Verdict, subject string, subj Cell, ok bool, cells map[string]Cell, g Gate) {
	switch {
	case unconfined(cells) != "":
		// A sampler that could not confine its benches ran none: it fails.
		v.Status = outcome.Unconfined
		v.Detail[unconfined(cells)] = "its sampler could not confine a bench, so it ran none (see the report's confinement)"
	case !ok && g.Entry != nil:
		v.Status = outcome.NoSubjectSource
		v.Detail[subject] = "the baseline has this bench, the suite has no " + subject + " program for it"
	case !ok:
		v.Status = outcome.NoSubjectSource
	case subj.Status == outcome.Unavailable:
		v.Status = outcome.SubjectUnavailable
	case !subj.measured() || subj.Status == outcome.StatusParityMismatch:
		v.Status = subj.Status
	case g.Emulated != "":
		// Before the baseline: an emulator's times are no measurement,
		// with a baseline or without one.
		v.Status = outcome.Emulated
		v.Detail[subject] = "time and memory not gated: emulated (" + g.Emulated + ")"
	case g.Entry == nil || g.Entry.ElapsedNs <= 0: // none, or counts alone
		v.Status = outcome.NoBaseline
		if g.NoBaseline != "" {
			v.Detail[subject] = "no_baseline (" + g.NoBaseline + ")"
		}
	case g.Incomparable != "":
		v.Status = outcome.IncomparableMachine
		v.Detail[subject] = "time and memory not gated: " + g.Incomparable
	default:
		v.Checks = gate(subj, g.Entry, g.Alpha)
		v.Status = combine(v.Checks)
		switch v.Status {
		case outcome.Regression, outcome.MemRegression:
			v.Cells[subject] = v.Status
			v.Detail[subject] = why(v.Checks)
		case outcome.Inconclusive:
			v.Detail[subject] = why(v.Checks)
		}
	}
}

// combine is the bench's status from its metrics' checks: a regression
// of any (time's, then memory's), then inconclusive, then improved, then
// ok.
func combine(checks map[string]*Check) outcome.Status {
	for _, s := range []outcome.Status{outcome.Regression, outcome.MemRegression, outcome.Inconclusive, outcome.Improved} {
		for _, c := range checks {
			if c.Status == s {
				return s
			}
		}
	}
	return outcome.OK
}

// why is every check's reason, in the registry's order.
func why(checks map[string]*Check) string {
	parts := []string{}
	for _, m := range All() {
		if c := checks[m.Name]; c != nil && c.Why != "" {
			parts = append(parts, c.Why)
		}
	}
	return strings.Join(parts, "; ")
}

// Run is the run's status from its benches, by their severity: failed when
// any fails the run, else regression when the time or memory of any
// regressed, else inconclusive when any needs attention, else ok. Whether
// an inconclusive run fails the gate (--strict) is the caller's to say.
func Run(benches []BenchStatus) outcome.Status {
	worst := outcome.OK
	for _, b := range benches {
		switch outcome.OfBench(b.Status, b.HadBaseline) {
		case outcome.Fails:
			return outcome.Failed
		case outcome.Regresses:
			worst = outcome.Regression
		case outcome.Attention:
			if worst == outcome.OK {
				worst = outcome.Inconclusive
			}
		}
	}
	return worst
}

// BenchStatus is what Run needs of a bench.
type BenchStatus struct {
	Status      outcome.Status
	HadBaseline bool
}

// MachineGate is whether a baselines file's machine can gate this run,
// decided once per run before its verdicts.
type MachineGate struct {
	// Machine is "same", "unknown" (a file that records none: it gates as
	// the seed's did) or "differs: " and what differs.
	Machine string
	// Incomparable is why nothing gates ("": the baselines gate).
	Incomparable string
	// Warning is what to tell the user, if anything.
	Warning string
}

// Machine compares the machine a baselines file (named path) was measured
// on with this one. A file from another machine gates nothing unless
// anyMachine.
func Machine(f *File, path string, here BaselineMachine, anyMachine bool) MachineGate {
	switch {
	case f.Machine == nil && len(f.Benches) > 0 && anyMachine:
		return MachineGate{Machine: "unknown", Warning: "baselines " + path + " record no machine: gating their times anyway (--gate-any-machine); re-record them here with --update-baselines"}
	case f.Machine == nil && len(f.Benches) > 0:
		// Times shift between machines; a count does not, so counts still gate.
		return MachineGate{Machine: "unknown", Incomparable: "the baselines record no machine",
			Warning: "baselines " + path + " record no machine: their times and memory peaks do not gate (incomparable_machine), their instruction counts do; re-record them here with --update-baselines, or give --gate-any-machine"}
	case f.Machine == nil:
		return MachineGate{Machine: "same"}
	}
	d := f.Machine.Differences(here)
	if len(d) == 0 {
		return MachineGate{Machine: "same"}
	}
	what := strings.Join(d, "; ")
	g := MachineGate{Machine: "differs: " + what}
	if anyMachine {
		g.Warning = "baselines measured on another machine (" + what + "); gating anyway (--gate-any-machine)"
		return g
	}
	g.Incomparable = "the baselines were measured on another machine (" + what + ")"
	g.Warning = "baselines measured on another machine (" + what + "): nothing gates (incomparable_machine); re-record them here, or give --gate-any-machine"
	return g
}

// unconfined names a language whose sampler refused to run its benches
// unconfined ("" when none did).
func unconfined(cells map[string]Cell) string {
	for lang, c := range cells {
		if c.Status == outcome.Unconfined {
			return lang
		}
	}
	return ""
}
