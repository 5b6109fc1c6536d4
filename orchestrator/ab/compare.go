package ab

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"math"
	"math/rand"
	"sort"
	"time"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/stats"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Side is one side of a pair: where its job runs and the job (Iters,
// Warmup and Count are set per round), or why it cannot run.
type Side struct {
	Where   runner.Where
	Job     runner.Job
	Missing string
}

// Pair is one bench in one language, on both sides.
type Pair struct {
	Name, Lang string
	A, B       Side
	// NotCounted says why the language has no instruction counts ("" when
	// Job.Count is set on both sides for the first round).
	NotCounted string
}

// Settings are how Compare runs the rounds.
type Settings struct {
	Threshold  float64 // the band's half-width above 1 (0.02: 2 %)
	Confidence float64 // overall, split over the looks (default 0.95)
	MinRounds  int
	MaxRounds  int
	Budget     time.Duration // 0: none
	Warmup     int           // each side's discarded runs before its first sample
	Seed       int64
	Log        io.Writer
	// Metric is what the verdict is on, from the metric registry (nil:
	// time): a sampled metric's figure is each round's ratio; a metric the
	// count lane carries (instructions) is judged on the sides' counts,
	// the rounds timing the pairs as for time.
	Metric *judge.Metric
}

// Defaults fills the settings left zero.
func (s Settings) Defaults() Settings {
	if s.Threshold == 0 {
		s.Threshold = 0.02
	}
	if s.Confidence == 0 {
		s.Confidence = 0.95
	}
	if s.MinRounds == 0 {
		s.MinRounds = 6
	}
	if s.MaxRounds == 0 {
		s.MaxRounds = 60
	}
	if s.Log == nil {
		s.Log = io.Discard
	}
	if s.Metric == nil {
		s.Metric = judge.MetricTime
	}
	return s
}

// state is one pair as its rounds accumulate.
type state struct {
	p          Pair
	m          *judge.Metric // what a sample's figure is (Settings.Metric)
	a, b       []int64
	ca, cb     []runner.Count // each side's counted runs, from round 1
	got        [2]int64       // this round's sample of each side, until both have one
	done       bool
	verdict    outcome.Status
	detail     string
	countAsked bool
	w          witnessSides // the witness of time, round for round
	// byCount: the verdict is on the count lane's exact counts (a metric
	// the samples do not carry), taken in round 1: the pair is done once
	// both sides ran, since later rounds' times would decide nothing.
	byCount bool
}

// Compare runs the rounds over pairs on s and returns each bench's
// comparison. It stops when every pair is resolved (after MinRounds), at
// MaxRounds, when Budget is spent, or when ctx is cancelled.
func Compare(ctx context.Context, s plan.Sampler, pairs []Pair, set Settings) *Result {
	set = set.Defaults()
	start := time.Now()
	family := 0
	for _, p := range pairs {
		if missingOf(p) == "" {
			family++
		}
	}
	looks, level := stats.SequentialLooks(set.MinRounds, set.MaxRounds, family, set.Confidence)
	res := &Result{Threshold: set.Threshold, Confidence: set.Confidence, LookLevel: level, Looks: looks, Seed: set.Seed,
		Metric: set.Metric.Name, Unit: set.Metric.Unit}
	rounds := set.Metric
	if !rounds.Sampled() {
		rounds = judge.MetricTime
	}
	var all []*state
	for _, p := range pairs {
		st := &state{p: p, m: rounds, byCount: !set.Metric.Sampled()}
		if why := missingOf(p); why != "" {
			st.done, st.verdict, st.detail = true, outcome.Missing, why
		}
		all = append(all, st)
	}
	e := &plan.Exec{Sampler: s, Units: units(all, set.Warmup), Budget: set.Budget, Looks: looks,
		Schedule: plan.Interleaved{N: set.MaxRounds, Rand: rand.New(rand.NewSource(set.Seed))},
		Live:     func(u int) bool { return !all[u].done },
		Starting: func(round, live int) {
			fmt.Fprintf(set.Log, "ab: round %d of at most %d, %d benches unresolved\n", round, set.MaxRounds, live)
		},
		Take: func(round int, step plan.Step, r plan.Result) bool {
			return take(all[step.Unit], round, step.Job, r.Outcome)
		},
		Look: func(int) {
			for _, st := range activeOf(all) {
				look(st, level, set.Threshold)
			}
		},
	}
	stop, n := e.Run(ctx)
	res.StoppedBy, res.Rounds = string(stop), n
	for _, st := range all {
		b := finish(st, level, set.Threshold)
		if !set.Metric.Sampled() {
			byCounts(&b, set.Metric, set.Threshold)
		}
		res.Benches = append(res.Benches, b)
	}
	sort.SliceStable(res.Benches, func(i, j int) bool { return res.Benches[i].Name < res.Benches[j].Name })
	res.ElapsedNs = time.Since(start).Nanoseconds()
	return res
}

// units are the pairs as the executor sees them: each its two sides, A
// then B, warming up warmup runs before their first sample (a pair that
// cannot run is never live).
func units(all []*state, warmup int) [][]plan.Job {
	out := make([][]plan.Job, len(all))
	for i, st := range all {
		cell := plan.Cell{Bench: st.p.Name, Lang: st.p.Lang}
		a, b := st.p.A.Job, st.p.B.Job
		a.Warmup, b.Warmup = warmup, warmup
		out[i] = []plan.Job{
			{Cell: cell, Side: "A", Where: st.p.A.Where, Job: a},
			{Cell: cell, Side: "B", Where: st.p.B.Where, Job: b},
		}
	}
	return out
}

func missingOf(p Pair) string {
	switch {
	case p.A.Missing != "" && p.B.Missing != "":
		return "A: " + p.A.Missing + "; B: " + p.B.Missing
	case p.A.Missing != "":
		return "A: " + p.A.Missing
	case p.B.Missing != "":
		return "B: " + p.B.Missing
	}
	return ""
}

func activeOf(all []*state) []*state {
	var out []*state
	for _, st := range all {
		if !st.done {
			out = append(out, st)
		}
	}
	return out
}

// take reads one side's sample of a round (side 0 A, 1 B); a round's
// ratio is kept once both sides have one. A side that fails ends the pair
// (the round's other side is then not sent); the first round's counts are
// kept. It says whether the pair is done.
func take(st *state, round, side int, o runner.Outcome) bool {
	name := "AB"[side]
	v := int64(0)
	if len(o.Samples) > 0 {
		v = figure(st.m, o.Samples[0])
	}
	if o.Status != outcome.OK || v <= 0 {
		st.done, st.verdict = true, outcome.Missing
		if o.Status == outcome.Interrupted {
			st.verdict = outcome.Unresolved
		}
		st.detail = fmt.Sprintf("%c: %s %s", name, o.Status, termtext.FirstLine(cmp.Or(o.Detail, o.BuildError)))
		return true
	}
	st.got[side] = v
	st.w.keep(side, witnessOf(o.Samples[0]))
	if side == 0 && round == 1 && st.p.A.Job.Count != nil {
		st.ca = o.Counts
	}
	if side == 1 && round == 1 && st.p.B.Job.Count != nil {
		st.cb = o.Counts
	}
	if st.got[0] > 0 && st.got[1] > 0 {
		st.a, st.b = append(st.a, st.got[0]), append(st.b, st.got[1])
		st.got = [2]int64{}
		return st.byCount
	}
	return false
}

// look gives a pair its verdict at this look; a resolved pair stops.
func look(st *state, level, t float64) {
	lo, hi, est := interval(st, level)
	v := judge.BandVerdict(est, lo, hi, t)
	if w, _, ok := onWitness(st, level, t); ok {
		v = w // the region disagrees with its witness: the wall time decides
	}
	if v != outcome.Unresolved {
		st.done, st.verdict = true, v
	}
}

func interval(st *state, level float64) (lo, hi, est float64) {
	iv := stats.HodgesLehmann(stats.LogRatios(floats(st.a), floats(st.b)), level)
	return math.Exp(iv.Low), math.Exp(iv.High), math.Exp(iv.Estimate)
}

func finish(st *state, level, t float64) Bench {
	b := Bench{Name: st.p.Name, Lang: st.p.Lang, Verdict: st.verdict, Detail: st.detail, Level: level, Rounds: len(st.a), SamplesA: st.a, SamplesB: st.b}
	if len(st.a) > 0 {
		b.MedianA, b.MedianB = float64(stats.Median(st.a)), float64(stats.Median(st.b))
		b.RatioLow, b.RatioHigh, b.Ratio = interval(st, level)
		if b.Verdict == "" {
			b.Verdict = judge.BandVerdict(b.Ratio, b.RatioLow, b.RatioHigh, t)
		}
		if math.IsInf(b.RatioHigh, 0) || b.RatioLow <= 0 { // JSON has no infinity
			b.RatioLow, b.RatioHigh = 0, 0
			b.Detail = join(b.Detail, fmt.Sprintf("%d rounds are too few for an interval at %.2f %%", len(st.a), 100*level))
		} else {
			b.HalfWidth = (b.RatioHigh - b.RatioLow) / 2
		}
	}
	if b.Verdict == "" {
		b.Verdict, b.Detail = outcome.Unresolved, "no round was run"
	}
	judgeWitness(&b, st, level, t)
	judgeCounts(&b, st.p, st.ca, st.cb)
	return b
}

func floats(xs []int64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = float64(x)
	}
	return out
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// figure is metric m's value in one sample, as the registry reads it from
// a cell of that one sample.
func figure(m *judge.Metric, s runner.Sample) int64 {
	return m.Read(judge.SampleCell(s.Figures)).Median
}
