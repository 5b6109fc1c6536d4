package ab

import (
	"fmt"
	"math"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/stats"
)

// The witness of time in ab (judge.OutsideNs says what it is): beside each
// round's region, each side's wall time of the process, measured by the
// sampler where the program cannot reach. An honest change to the region
// moves the wall time by what it took out or added, and leaves the time
// outside the region as it was; a region made to look faster or slower
// than its process leaves that time outside it. Where one side's outside
// time grew past the witness's tolerance of the other's (judge.OutsideGrew),
// or where the time the region says one side saved reappears outside its
// region (judge.SavingMoved), B/A of the region is not taken: the verdict is made on B/A of the wall
// time and says so.

// witnessed is one side's figures of a round the witness reads: its wall
// time and the time outside its region (0 where the sample carries none).
type witnessed struct{ wall, outside int64 }

func witnessOf(s runner.Sample) witnessed {
	wall, el := s.Fig(wire.WallNs), s.Fig(wire.ElapsedNs)
	if wall <= 0 || el <= 0 || wall < el {
		return witnessed{}
	}
	return witnessed{wall: wall, outside: wall - el}
}

// witnessSides are the rounds' witness figures of both sides, kept beside
// the metric's (state.a, state.b), round for round.
type witnessSides struct {
	got    [2]witnessed
	a, b   []witnessed
	broken bool // a round without a wall time: no witness for the pair
}

// keep records side's witness of the round; once both sides have one it
// joins the rounds.
func (w *witnessSides) keep(side int, s witnessed) {
	if s.wall == 0 {
		w.broken = true
	}
	w.got[side] = s
	if w.got[0].wall > 0 && w.got[1].wall > 0 {
		w.a, w.b = append(w.a, w.got[0]), append(w.b, w.got[1])
		w.got = [2]witnessed{}
	}
}

func (w *witnessSides) series(a bool, outside bool) []int64 {
	src := w.b
	if a {
		src = w.a
	}
	out := make([]int64, len(src))
	for i, s := range src {
		out[i] = s.wall
		if outside {
			out[i] = s.outside
		}
	}
	return out
}

// onWitness is the verdict on B/A of the wall time, at level and
// threshold t, and why, where the time outside the region grew on one side
// past the witness's tolerance of the other's; ok false where the region
// stands (or the metric is not time, or a round had no wall time).
func onWitness(st *state, level, t float64) (v outcome.Status, why string, ok bool) {
	w := &st.w
	if st.m != judge.MetricTime || w.broken || len(w.a) < 2 || len(w.a) != len(st.a) {
		return "", "", false
	}
	oa, ob := w.series(true, true), w.series(false, true)
	grew := judge.OutsideGrew(cellOf(ob), cellOf(oa), alphaWitness)
	if grew == "" {
		grew = judge.OutsideGrew(cellOf(oa), cellOf(ob), alphaWitness)
	}
	rlo, rhi, region := interval(st, level)
	if grew == "" {
		grew = savingMoved(st, oa, ob, judge.BandVerdict(region, rlo, rhi, t))
	}
	if grew == "" {
		return "", "", false
	}
	iv := stats.HodgesLehmann(stats.LogRatios(floats(w.series(true, false)), floats(w.series(false, false))), level)
	lo, hi, est := math.Exp(iv.Low), math.Exp(iv.High), math.Exp(iv.Estimate)
	why = fmt.Sprintf("B/A of the timed region is %.3f, of the process's wall time %.3f: the time outside the region moved (A %s, B %s), so the region is not taken and the verdict is the wall time's",
		region, est, judge.FormatNs(stats.Median(oa)), judge.FormatNs(stats.Median(ob)))
	return judge.BandVerdict(est, lo, hi, t), why, true
}

// savingMoved is judge.SavingMoved of the side the region calls faster
// against the other (regionVerdict: B's against A's); "" where the region
// calls neither faster.
func savingMoved(st *state, oa, ob []int64, regionVerdict outcome.Status) string {
	a, b := cellOf(st.a), cellOf(st.b)
	switch regionVerdict {
	case outcome.Faster:
		return judge.SavingMoved(b, a, cellOf(ob), cellOf(oa), alphaWitness)
	case outcome.Slower:
		return judge.SavingMoved(a, b, cellOf(oa), cellOf(ob), alphaWitness)
	}
	return ""
}

// judgeWitness holds a finished time comparison to its witness.
func judgeWitness(b *Bench, st *state, level, t float64) {
	if v, why, ok := onWitness(st, level, t); ok {
		b.Verdict, b.Detail = v, join(b.Detail, why)
	}
}

// alphaWitness is the significance the outside time's growth needs, as
// run's default --alpha.
const alphaWitness = 0.01

func cellOf(xs []int64) judge.Values { return judge.Values{Median: stats.Median(xs), Samples: xs} }
