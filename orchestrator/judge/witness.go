package judge

import (
	"fmt"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/stats"
)

// The witness of time. A bench prints its own elapsed_ns, and the compiler
// under test chooses the machine code that reads the clock: it can make
// that figure any number (read the clock twice after the loop and the
// region is a hundredth of the work). The sampler's own wall time of the
// process (wall_ns) is measured where the program cannot reach. What lies
// outside the region — wall_ns − elapsed_ns, the figure OutsideNs — is
// what an honest change to the region leaves as it was: a region made
// faster for real takes its time out of the process, a region made to
// look faster leaves the time in the process, outside the region.
//
// The witness is declared here once, beside the metric registry, and
// rides the named figures: CellOf derives OutsideNs for every sample that
// carries both of its figures. It is not one of the registry's metrics
// (nothing gates it on its own, no grid column shows it): it decides
// whether the time metric's verdict may gate.
const OutsideNs = "outside_ns"

// The witness's tolerance, set from the honest spread (docs/security.md,
// the witness section: two runs of unchanged sources over the catalogue,
// every language here). The outside time of an honest subject may grow by
// WitnessTolerance of its baseline's, and by WitnessFloorNs, before the
// region no longer explains the process's change; the growth must also be
// significant (one-sided Mann–Whitney, as the time rule's).
const (
	WitnessTolerance = 4.0 // honest A/A: run 2 / run 1 up to 3.69 (102 cells)
	WitnessFloorNs   = 5_000_000
)

// WitnessMovedFloorNs is the least growth of the outside time the saving
// rule (SavingMoved) takes: below it, the process's start and end vary
// more than a forged region would show.
const WitnessMovedFloorNs = 1_000_000

// MaxInstrPerNs is the most instructions of the counted build per
// nanosecond of the timed build's region an honest bench shows, with room:
// the two builds differ (the counted one for a fixed target), so the ratio
// is not a CPU's rate alone. Over the whole catalogue counted and timed
// (docs/security.md: C, Rust and hale regions, 2026-12-07) it went up to
// 38 (loop_overhead in C: 52.5 M instructions in 1.38 ms), past what one
// core retires of the same code; 100 is 2.6 times the most seen, and a
// region forged to a hundredth of such a loop is thousands.
const MaxInstrPerNs = 100.0

// WitnessFields are the witness's keys in a baselines entry: the outside
// time's median and its samples. An entry recorded before the witness has
// neither: its subject's time gates with no witness check, as its verdict
// says.
var WitnessFields = &Fields{
	Metric: "witness",
	Keys:   []string{"outside_ns", "outside_samples"},
	Check:  checkWitness,
}

func init() { Declare(WitnessFields) }

// witnessBase is the entry's outside time, false where it records none.
func witnessBase(e *Entry) (Values, bool) {
	var b Values
	if e == nil {
		return b, false
	}
	has, err := e.Figure("outside_ns", &b.Median)
	if !has || err != nil || b.Median <= 0 {
		return Values{}, false
	}
	if _, err := e.Figure("outside_samples", &b.Samples); err != nil {
		return Values{}, false
	}
	return b, true
}

func checkWitness(where string, e *Entry) string {
	var median int64
	var samples []int64
	if _, err := e.Figure("outside_ns", &median); err != nil {
		return where + "field outside_ns must be an integer"
	}
	if _, err := e.Figure("outside_samples", &samples); err != nil {
		return where + "field outside_samples must be a list of integers"
	}
	if msg := nonNegative(where, []namedInt{{"outside_ns", median}}); msg != "" {
		return msg
	}
	if msg := atLeast(where, "outside_samples", samples, 0); msg != "" {
		return msg
	}
	if median > 0 {
		return agrees(where, "outside_ns", median, "outside_samples", samples)
	}
	return ""
}

// recordWitness writes the outside time of a bench's independent runs into
// e: the median of every sample's and the samples (--update-baselines).
func recordWitness(e *Entry, runs []MetricCell) {
	var all []int64
	for _, r := range runs {
		all = append(all, r[OutsideNs].Samples...)
	}
	if len(all) == 0 {
		return
	}
	_ = e.SetFigure("outside_ns", stats.Median(all))
	_ = e.SetFigure("outside_samples", all)
}

// withOutside is a sample's figures with OutsideNs derived where it
// carries both the region and the process's wall time.
func withOutside(s map[string]int64) map[string]int64 {
	el, ok1 := s[wire.ElapsedNs]
	wall, ok2 := s[wire.WallNs]
	if !ok1 || !ok2 || el <= 0 || wall < el {
		return s
	}
	out := make(map[string]int64, len(s)+1)
	for k, v := range s {
		out[k] = v
	}
	out[OutsideNs] = wall - el
	return out
}

// WitnessCheck is what the witness says of a subject's time: Why is ""
// where the witness agrees (or there was none to ask, said in Note).
// Moved is why the time the region claims to have saved reappears outside
// it (SavingMoved): it holds only a verdict that the region is faster.
type WitnessCheck struct {
	Why   string
	Note  string
	Moved string
}

// Witness holds the subject's cell's time to its witnesses: against the
// entry (nil: none), its outside time; in any run, where it was counted,
// its instructions per nanosecond of the region.
func Witness(c Cell, e *Entry, alpha float64) WitnessCheck {
	if why := instrPerNs(c); why != "" {
		return WitnessCheck{Why: why}
	}
	if e == nil || e.ElapsedNs <= 0 {
		return WitnessCheck{}
	}
	base, ok := witnessBase(e)
	if !ok {
		return WitnessCheck{Note: "no witness check: the baseline records no outside time (recorded before the witness; re-record it with --update-baselines)"}
	}
	here := c.Figures[OutsideNs]
	if len(here.Samples) == 0 {
		return WitnessCheck{Note: "no witness check: the samples carry no wall time"}
	}
	region := Values{Median: c.Median, Samples: c.Samples}
	baseRegion := Values{Median: e.ElapsedNs, Samples: e.Samples}
	return WitnessCheck{Why: OutsideGrew(here, base, alpha), Moved: SavingMoved(region, baseRegion, here, base, alpha)}
}

// SavingMoved says why the time the region here saved against base's
// reappears outside it: the region is shorter by some time, and the
// process's time outside it grew, significantly, by at least half that
// time and by WitnessMovedFloorNs. A region made faster for real takes its
// time out of the process; one whose clock reads moved (a hundredth of the
// loop timed) leaves the process as long as it was. "" where not.
func SavingMoved(region, baseRegion, outside, baseOutside Values, alpha float64) string {
	saved := baseRegion.Median - region.Median
	grew := outside.Median - baseOutside.Median
	if saved <= 0 || grew < WitnessMovedFloorNs || 2*grew < saved {
		return ""
	}
	if len(baseOutside.Samples) > 0 && len(outside.Samples) > 0 {
		if p := stats.MannWhitneyGreater(outside.Samples, baseOutside.Samples); p >= alpha {
			return ""
		}
	}
	return fmt.Sprintf("the timed region is %s shorter (%s against %s) but the process's time outside it grew by %s (%s against %s): the time the region claims to save reappears outside it, so its elapsed_ns is not taken",
		FormatNs(saved), FormatNs(region.Median), FormatNs(baseRegion.Median), FormatNs(grew), FormatNs(outside.Median), FormatNs(baseOutside.Median))
}

// OutsideGrew says why the outside time here grew past the witness's
// tolerance and floor of the baseline's, significantly; "" where it did
// not.
func OutsideGrew(here, base Values, alpha float64) string {
	lim := float64(base.Median) * (1 + WitnessTolerance)
	if float64(here.Median) <= lim || here.Median-base.Median < WitnessFloorNs {
		return ""
	}
	if len(base.Samples) > 0 {
		if p := stats.MannWhitneyGreater(here.Samples, base.Samples); p >= alpha {
			return ""
		}
	}
	return fmt.Sprintf("the process's time outside its timed region grew from %s to %s (over the witness's %s and %s): the region does not explain the process's time, so its elapsed_ns is not taken",
		FormatNs(base.Median), FormatNs(here.Median), PctBand(WitnessTolerance), FormatNs(WitnessFloorNs))
}

// instrPerNs says why the cell's counted instructions per nanosecond of
// the time they were counted over is more than a CPU retires; "" where
// not counted or not past MaxInstrPerNs.
func instrPerNs(c Cell) string {
	if !c.Count.Asked || c.Median <= 0 {
		return ""
	}
	n := Summarize(c.Count)
	if n.Status != outcome.OK || n.Median == 0 {
		return ""
	}
	over, what := c.Median, "timed region"
	if n.Scope == wire.ScopeProcess {
		if w := c.Figures[wire.WallNs].Median; w > 0 {
			over, what = w, "process"
		}
	}
	rate := float64(n.Median) / float64(over)
	if rate <= MaxInstrPerNs {
		return ""
	}
	return fmt.Sprintf("%d instructions in a %s of %s is %.0f per ns, more than a CPU retires (%.0f): its elapsed_ns is not taken", n.Median, what, FormatNs(over), rate, MaxInstrPerNs)
}

// witness holds the subject's gated time to its witness: where the
// witness disagrees, a verdict that would let it pass (ok, improved,
// inconclusive) becomes Unwitnessed with why; a regression stands.
func witness(v *Verdict, subject string, cells map[string]Cell, g Gate) {
	subj, ok := cells[subject]
	if !ok || !subj.measured() || g.Emulated != "" {
		return
	}
	entry := g.Entry
	if g.Incomparable != "" {
		entry = nil // another machine's outside time says nothing of this one's
	}
	w := Witness(subj, entry, g.Alpha)
	if w.Why == "" && v.Status == outcome.Improved {
		w.Why = w.Moved // faster, but not by the process's time
	}
	switch {
	case w.Why != "" && v.Status.Severity() < outcome.Regresses:
		v.Status, v.Cells[subject] = outcome.Unwitnessed, outcome.Unwitnessed
		v.Detail[subject] = w.Why
	case w.Note != "" && v.Checks != nil:
		v.Witness = w.Note
		if t := v.Checks[MetricTime.Name]; t != nil && t.Why == "" {
			t.Why = w.Note // the report's time check says it
		}
	}
}

// ErrUnwitnessed is what a run in CI (CI=true) ends in when its subject's
// time disagreed with its witness on a bench: like a subject that could
// not be measured, there is no time to gate on (it wraps ErrUnmeasured:
// exit 3). On a workstation the bench needs attention, a warning.
func ErrUnwitnessed(benches []BenchStatus) error {
	n := 0
	for _, b := range benches {
		if b.Status == outcome.Unwitnessed {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return fmt.Errorf("%d benches' time or instruction count disagrees with its witness (unwitnessed: see each verdict); in CI (CI=true) a subject whose figures are not witnessed fails as an unmeasured one, with nothing gated: %w", n, ErrUnmeasured)
}
