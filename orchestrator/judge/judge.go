package judge

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/baseline"
	"github.com/hale-lang/halebench/orchestrator/stats"
	"github.com/hale-lang/halebench/orchestrator/status"
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
	Status     status.Status
	Check      string
	Median     int64   // elapsed ns; 0 when nothing was measured
	Samples    []int64 // elapsed ns, every sample (confirmation included)
	MemKB      int64   // median memory: the cgroup peak, or maxrss where there is none
	MemSamples []int64
	Count      CountCell // the count lane (Asked false: not counted)
}

// measured says whether the cell has a number that can be compared.
func (c Cell) measured() bool {
	return (c.Status == status.OK || c.Status == status.ParityMismatch) && c.Median > 0
}

// Gate is how the subject is gated: its baseline entry (nil: none), the
// significance level, and why the baseline's machine cannot gate this one
// ("" : it can).
type Gate struct {
	Entry        *baseline.Entry
	Alpha        float64
	Incomparable string
}

// Check is one gated quantity's verdict: time or memory.
type Check struct {
	Status   status.Status `json:"status"`
	Median   int64         `json:"median"`
	Baseline int64         `json:"baseline"`
	Ratio    float64       `json:"ratio"`     // median / baseline
	Band     float64       `json:"band"`      // the relative band it was held to
	BandFrom string        `json:"band_from"` // where the band comes from
	Noise    float64       `json:"noise"`     // this run's relative standard error of the median
	P        *float64      `json:"p,omitempty"`
	Why      string        `json:"why,omitempty"`
}

// resolves says whether a run whose median has relative standard error
// noise can tell a move of band from nothing: its 95% half-width fits.
func resolves(noise, band float64) bool { return 1.96*noise <= band }

// Time judges the subject's elapsed samples against the entry: a
// regression needs both a median over the band and a significant shift
// (one-sided Mann–Whitney against the baseline's samples, p < alpha, and,
// where the baseline measured between-run drift, a shift beyond it: the
// log ratio over √(drift² + both runs' noise²) as a normal z, drift being
// the entry's drift_sigma floored by its file's host drift); a
// median over the band that is not significant, or within the band in a
// run too noisy to resolve it, is inconclusive; faster than the band,
// significantly, is improved. An entry without samples (the seed's) is
// judged on the band and this run's own 95% interval of its median: over
// the band only when the whole interval is.
func Time(c Cell, e *baseline.Entry, alpha float64) Check {
	v := Check{Median: c.Median, Baseline: e.ElapsedNs, Band: e.Tol(), BandFrom: e.TolSource(), Noise: stats.RelSEMedian(c.Samples)}
	v.Ratio = float64(c.Median) / float64(e.ElapsedNs)
	var pSlow, pFast *float64
	if len(e.Samples) > 0 && len(c.Samples) > 0 {
		ps, pf := stats.MannWhitneyGreater(c.Samples, e.Samples), stats.MannWhitneyGreater(e.Samples, c.Samples)
		// Samples within one run are not independent of the run: a host
		// whose medians move between runs (drift_sigma) moves all of a
		// run's samples together. A shift must also stand out from that
		// between-run movement: the larger p of the two tests counts.
		if d := e.Drift(); d > 0 {
			sd := math.Sqrt(sq(d) + sq(v.Noise) + sq(deref(e.Noise)))
			z := math.Log(v.Ratio) / sd
			ps = math.Max(ps, 0.5*math.Erfc(z/math.Sqrt2))
			pf = math.Max(pf, 0.5*math.Erfc(-z/math.Sqrt2))
		}
		pSlow, pFast = &ps, &pf
	}
	// The run's own 95% interval of the ratio, from its noise.
	lo, hi := v.Ratio*(1-1.96*v.Noise), v.Ratio*(1+1.96*v.Noise)
	switch {
	case v.Ratio > 1+v.Band && pSlow != nil:
		v.P = pSlow
		if *pSlow < alpha {
			v.Status, v.Why = status.Regression, fmt.Sprintf("median %s the baseline, over its %s band, p = %.2g", pct(v.Ratio), pctBand(v.Band), *pSlow)
		} else {
			v.Status, v.Why = status.Inconclusive, fmt.Sprintf("median %s the baseline, over its %s band, but not significant (p = %.2g ≥ %.2g)", pct(v.Ratio), pctBand(v.Band), *pSlow, alpha)
		}
	case v.Ratio > 1+v.Band && lo > 1+v.Band:
		v.Status, v.Why = status.Regression, fmt.Sprintf("median %s the baseline, over its %s band by more than this run's ±%.1f%% (no baseline samples to test)", pct(v.Ratio), pctBand(v.Band), 196*v.Noise)
	case v.Ratio > 1+v.Band:
		v.Status, v.Why = status.Inconclusive, fmt.Sprintf("median %s the baseline, over its %s band, but this run's ±%.1f%% reaches back inside it (no baseline samples to test)", pct(v.Ratio), pctBand(v.Band), 196*v.Noise)
	case v.Ratio < 1-v.Band && ((pFast != nil && *pFast < alpha) || (pFast == nil && hi < 1-v.Band)):
		v.Status, v.P, v.Why = status.Improved, pFast, fmt.Sprintf("median %s the baseline, past its %s band", pct(v.Ratio), pctBand(v.Band))
	case v.Ratio < 1-v.Band:
		v.Status = status.OK
	case !resolves(v.Noise, v.Band):
		v.Status, v.Why = status.Inconclusive, fmt.Sprintf("this run's median is known to ±%.1f%%, wider than the %s band", 196*v.Noise, pctBand(v.Band))
	default:
		v.Status = status.OK
	}
	return v
}

// MemMinDeltaKB is the least growth of memory that can regress: below it
// the peak of a small bench moves with the page cache it happens to touch
// first (256 KiB benches measured 256 to 470 KiB, sample to sample).
const MemMinDeltaKB = 512

// Memory judges the subject's memory against the entry's memory baseline;
// nil where the entry has none halebench recorded. Growth must pass the
// band and MemMinDeltaKB.
func Memory(c Cell, e *baseline.Entry, alpha float64) *Check {
	band := e.MemTol()
	if band == nil || c.MemKB <= 0 {
		return nil
	}
	v := &Check{Median: c.MemKB, Baseline: e.MemKB, Band: *band, BandFrom: "mem_tolerance", Noise: stats.RelSEMedian(c.MemSamples)}
	v.Ratio = float64(c.MemKB) / float64(e.MemKB)
	if v.Ratio <= 1+v.Band || c.MemKB-e.MemKB < MemMinDeltaKB {
		v.Status = status.OK
		return v
	}
	if len(e.MemSamples) > 0 && len(c.MemSamples) > 0 {
		p := stats.MannWhitneyGreater(c.MemSamples, e.MemSamples)
		v.P = &p
		if p >= alpha {
			v.Status, v.Why = status.Inconclusive, fmt.Sprintf("memory %s the baseline, over its %s band, but not significant (p = %.2g)", pct(v.Ratio), pctBand(v.Band), p)
			return v
		}
	}
	v.Status, v.Why = status.MemRegression, fmt.Sprintf("memory %s the baseline (%d KiB vs %d KiB), over its %s band", pct(v.Ratio), c.MemKB, e.MemKB, pctBand(v.Band))
	return v
}

// Suspect says whether the subject's cell is over a band of its baseline:
// a cell to measure again before the verdict.
func Suspect(c Cell, g Gate) bool {
	e := g.Entry
	if e == nil || e.ElapsedNs <= 0 || g.Incomparable != "" || !c.measured() {
		return false
	}
	if float64(c.Median) > float64(e.ElapsedNs)*(1+e.Tol()) {
		return true
	}
	if b := e.MemTol(); b != nil && c.MemKB > 0 && float64(c.MemKB) > float64(e.MemKB)*(1+*b) {
		return true
	}
	return false
}

func sq(x float64) float64 { return x * x }

func deref(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

func pct(ratio float64) string {
	if ratio >= 1 {
		return fmt.Sprintf("+%.1f%% over", (ratio-1)*100)
	}
	return fmt.Sprintf("%.1f%% under", (1-ratio)*100)
}

func pctBand(b float64) string { return fmt.Sprintf("%.1f%%", b*100) }

// Verdict is what the judge decided of one bench.
type Verdict struct {
	// Status is the bench's: the subject's gate outcome, or why it has none.
	Status status.Status
	Parity string
	Check  string // the workload's check, as most siblings printed it
	// Cells holds each language's status after judging (a parity mismatch
	// or a regression replaces ok) and why, where it changed.
	Cells  map[string]status.Status
	Detail map[string]string
	// Ratios holds each measured comparative's median over the subject's
	// (> 1: the subject is faster).
	Ratios map[string]float64
	// Time and Memory are the gate's checks of the subject (nil: not gated).
	Time   *Check
	Memory *Check
	// Counts holds each counted language's count lane (the subject's held
	// to its baseline); Flagged names the metrics that regressed (time,
	// memory, instructions).
	Counts  map[string]*CountCheck
	Flagged []string
}

// Bench judges one bench from its cells (language -> result) and how its
// subject is gated.
func Bench(subject string, cells map[string]Cell, g Gate) Verdict {
	v, checks := Verdict{Cells: map[string]status.Status{}, Detail: map[string]string{}, Ratios: map[string]float64{}, Counts: map[string]*CountCheck{}}, map[string]string{}
	for lang, c := range cells {
		v.Cells[lang] = c.Status
		if c.Status == status.OK {
			checks[lang] = c.Check
		}
	}
	var mismatched []string
	v.Parity, mismatched, v.Check = Parity(checks)
	for _, lang := range mismatched {
		c := cells[lang]
		c.Status = status.ParityMismatch
		cells[lang] = c
		v.Cells[lang] = status.ParityMismatch
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
	switch {
	case unconfined(cells) != "":
		// A sampler that could not confine its benches ran none: it fails.
		v.Status = status.Unconfined
		v.Detail[unconfined(cells)] = "its sampler could not confine a bench, so it ran none (see the report's confinement)"
	case !ok && g.Entry != nil:
		v.Status = status.NoSubjectSource
		v.Detail[subject] = "the baseline has this bench, the suite has no " + subject + " program for it"
	case !ok:
		v.Status = status.NoSubjectSource
	case subj.Status == status.Unavailable:
		v.Status = status.SubjectUnavailable
	case !subj.measured() || subj.Status == status.ParityMismatch:
		v.Status = subj.Status
	case g.Entry == nil || g.Entry.ElapsedNs <= 0: // none, or counts alone
		v.Status = status.NoBaseline
	case g.Incomparable != "":
		v.Status = status.IncomparableMachine
	default:
		t := Time(subj, g.Entry, g.Alpha)
		v.Time, v.Memory = &t, Memory(subj, g.Entry, g.Alpha)
		v.Status = combine(t.Status, v.Memory)
		switch v.Status {
		case status.Regression, status.MemRegression:
			v.Cells[subject] = v.Status
			v.Detail[subject] = why(t, v.Memory)
		case status.Inconclusive:
			v.Detail[subject] = why(t, v.Memory)
		}
	}
	judgeCounts(&v, subject, cells, g.Entry)
	return v
}

// combine is the bench's status from its time and memory checks: a
// regression of either, then inconclusive, then improved, then ok.
func combine(t status.Status, m *Check) status.Status {
	ms := status.OK
	if m != nil {
		ms = m.Status
	}
	for _, s := range []status.Status{status.Regression, status.MemRegression, status.Inconclusive} {
		if t == s || ms == s {
			return s
		}
	}
	return t
}

func why(t Check, m *Check) string {
	parts := []string{}
	if t.Why != "" {
		parts = append(parts, t.Why)
	}
	if m != nil && m.Why != "" {
		parts = append(parts, m.Why)
	}
	return strings.Join(parts, "; ")
}

// Run is the run's status from its benches, by their severity: failed when
// any fails the run, else regression when the time or memory of any
// regressed, else inconclusive when any needs attention, else ok. Whether
// an inconclusive run fails the gate (--strict) is the caller's to say.
func Run(benches []BenchStatus) status.Status {
	worst := status.OK
	for _, b := range benches {
		switch status.OfBench(b.Status, b.HadBaseline) {
		case status.Fails:
			return status.Failed
		case status.Regresses:
			worst = status.Regression
		case status.Attention:
			if worst == status.OK {
				worst = status.Inconclusive
			}
		}
	}
	return worst
}

// BenchStatus is what Run needs of a bench.
type BenchStatus struct {
	Status      status.Status
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
func Machine(f *baseline.File, path string, here baseline.Machine, anyMachine bool) MachineGate {
	switch {
	case f.Machine == nil && len(f.Benches) > 0:
		return MachineGate{Machine: "unknown", Warning: "baselines " + path + " record no machine: they gate as the seed's did; re-record them here with --update-baselines"}
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
	g.Incomparable = g.Machine
	g.Warning = "baselines measured on another machine (" + what + "): nothing gates (incomparable_machine); re-record them here, or give --gate-any-machine"
	return g
}

// unconfined names a language whose sampler refused to run its benches
// unconfined ("" when none did).
func unconfined(cells map[string]Cell) string {
	for lang, c := range cells {
		if c.Status == status.Unconfined {
			return lang
		}
	}
	return ""
}
