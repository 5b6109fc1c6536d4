package bisect

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Change is one step: a commit where a bench moved past the threshold
// against the commit before it (its parent, or, when the commits between
// did not build, the nearest tested commit before it: then Among lists
// where the step may lie). Ratio is in Metric (instructions where the
// subject is counted, else time), with the time ratio beside it; TimeOnly
// is a time move with equal instructions.
type Change struct {
	Commit        string     `json:"commit"`
	Subject       string     `json:"subject"`
	Bench         string     `json:"bench"`
	Against       string     `json:"against"`        // the commit compared with
	AgainstParent bool       `json:"against_parent"` // Against is the commit's first parent
	Ratio         float64    `json:"ratio_vs_parent"`
	Interval      [2]float64 `json:"interval"`
	Metric        string     `json:"metric,omitempty"`
	TimeRatio     float64    `json:"time_ratio,omitempty"`
	TimeInterval  []float64  `json:"time_interval,omitempty"`
	TimeOnly      bool       `json:"time_only,omitempty"`
	Among         []Commit   `json:"among,omitempty"` // the step is one of these: all but the last did not build
	Note          string     `json:"note,omitempty"`
}

// walk finds every step: the segment between the ends is searched, and
// each segment whose ends differ is split at a built commit near its
// middle, down to adjacent commits (or commits with only skipped ones
// between). Built commits and comparisons are reused.
func (s *search) walk(ctx context.Context) error {
	if err := s.segment(ctx, 0, len(s.cs)-1); err != nil {
		return err
	}
	s.conclude()
	return nil
}

func (s *search) segment(ctx context.Context, lo, hi int) error {
	if !s.differs(s.memo[[2]int{lo, hi}]) {
		return nil
	}
	for {
		mid, ok := s.pick(lo, hi)
		if !ok {
			s.record(lo, hi)
			return nil
		}
		built, err := s.test(ctx, mid, lo, hi)
		if err != nil {
			return err
		}
		if built {
			if err := s.segment(ctx, lo, mid); err != nil {
				return err
			}
			return s.segment(ctx, mid, hi)
		}
	}
}

// differs says whether any searched bench moved in a comparison.
func (s *search) differs(m map[string]Ratio) bool {
	for _, b := range s.r.Moved {
		if r, ok := m[b]; ok && moves(r, s.o.Threshold) {
			return true
		}
	}
	return false
}

// pick is the buildable-so-far commit strictly between lo and hi nearest
// the middle (the lower on a tie).
func (s *search) pick(lo, hi int) (int, bool) {
	mid := (lo + hi) / 2
	for d := 0; d < hi-lo; d++ {
		for _, i := range []int{mid - d, mid + d} {
			if i > lo && i < hi && !s.skipped[i] {
				return i, true
			}
		}
	}
	return 0, false
}

// test builds commit i and compares it with the tested commits lo and hi
// either side of it. It says false when the commit does not build.
func (s *search) test(ctx context.Context, i, lo, hi int) (bool, error) {
	c := s.cs[i]
	fmt.Fprintf(s.o.Log, "bisect: building %s %s\n", termtext.ShortID(c.ID), c.Subject)
	side, err := s.j.Build(ctx, c)
	st := Step{Commit: c, BuildSeconds: side.BuildSeconds}
	if err != nil {
		if !errors.Is(err, ErrNotBuilt) || ctx.Err() != nil {
			return false, fmt.Errorf("building %s: %w", termtext.ShortID(c.ID), err)
		}
		st.Verdict, st.Note = VerdictSkipped, termtext.Clean(err.Error())
		fmt.Fprintf(s.o.Log, "bisect: %s does not build, skipped (as git bisect skip): %s\n", termtext.ShortID(c.ID), st.Note)
		s.skipped[i] = true
		s.add(st)
		return false, nil
	}
	s.sides[i] = side
	st.Before, st.After = s.cs[lo].ID, s.cs[hi].ID
	if st.VsBefore, err = s.j.Compare(ctx, s.sides[lo], side, s.r.Moved); err != nil {
		return false, fmt.Errorf("comparing %s with %s: %w", termtext.ShortID(c.ID), termtext.ShortID(s.cs[lo].ID), err)
	}
	if st.VsAfter, err = s.j.Compare(ctx, side, s.sides[hi], s.r.Moved); err != nil {
		return false, fmt.Errorf("comparing %s with %s: %w", termtext.ShortID(c.ID), termtext.ShortID(s.cs[hi].ID), err)
	}
	s.memo[[2]int{lo, i}], s.memo[[2]int{i, hi}] = st.VsBefore, st.VsAfter
	before, after := s.differs(st.VsBefore), s.differs(st.VsAfter)
	switch {
	case !before && after:
		st.Verdict = VerdictGood
	case before && !after:
		st.Verdict = VerdictBad
	case before && after:
		st.Verdict = VerdictNeither
	default:
		st.Verdict = VerdictSame
	}
	st.Note = fmt.Sprintf("vs %s: %s | %s vs it: %s", termtext.ShortID(s.cs[lo].ID), Figures(st.VsBefore), termtext.ShortID(s.cs[hi].ID), Figures(st.VsAfter))
	fmt.Fprintf(s.o.Log, "bisect: %s is %s (%s)\n", termtext.ShortID(c.ID), st.Verdict, st.Note)
	s.add(st)
	return true, nil
}

// record names the step between lo and hi, tested commits with none
// built between them: hi against lo, one Change per bench that moved.
func (s *search) record(lo, hi int) {
	m := s.memo[[2]int{lo, hi}]
	benches := append([]string(nil), s.r.Moved...)
	sort.Strings(benches)
	for _, b := range benches {
		r, ok := m[b]
		if !ok || !moves(r, s.o.Threshold) {
			continue
		}
		c := Change{Commit: s.cs[hi].ID, Subject: s.cs[hi].Subject, Bench: b, Against: s.cs[lo].ID, AgainstParent: hi-lo == 1,
			Ratio: r.Ratio, Interval: [2]float64{r.Low, r.High}, Metric: r.Metric}
		if r.Time != nil {
			c.TimeRatio, c.TimeInterval = r.Time.Ratio, []float64{r.Time.Low, r.Time.High}
			c.TimeOnly = move(r, s.o.Threshold) == 0
		}
		if hi-lo > 1 {
			c.Among = append([]Commit(nil), s.cs[lo+1:hi+1]...)
			c.Note = fmt.Sprintf("the commits between %s and %s did not build: the step is one of %s", termtext.ShortID(s.cs[lo].ID), termtext.ShortID(s.cs[hi].ID), shorts(c.Among))
		}
		s.r.Changes = append(s.r.Changes, c)
	}
}

// conclude is the answer: the first step by the metric names the outcome,
// and the detail lists every step.
func (s *search) conclude() {
	if len(s.r.Changes) == 0 {
		s.r.Outcome = Gradual
		s.r.Detail = fmt.Sprintf("the ends differ (%s), yet no commit moves %s past %s against the tested commit before it: a drift spread over commits, or noise; no commit is named", Figures(s.r.Ends), strings.Join(s.r.Moved, ", "), pct(s.o.Threshold))
		return
	}
	var parts []string
	for _, c := range s.r.Changes {
		parts = append(parts, DescribeChange(c))
	}
	// The first step is the first by the metric; time-only steps are
	// named beside it (the first when there are only those).
	first := s.r.Changes[0]
	for _, c := range s.r.Changes {
		if !c.TimeOnly {
			first = c
			break
		}
	}
	if first.Among != nil {
		s.r.Outcome, s.r.Range = AmongSkipped, first.Among
		s.r.Detail = fmt.Sprintf("the first step is one of these %d commits, and all but the last did not build: %s; steps: %s", len(first.Among), shorts(first.Among), strings.Join(parts, "; "))
		return
	}
	c := s.cs[s.index(first.Commit)]
	s.r.Outcome, s.r.First = Found, &c
	by := ""
	if first.Metric != "" {
		by = " by " + first.Metric
		if first.TimeOnly {
			by = " by time alone"
		}
	}
	s.r.Detail = fmt.Sprintf("commit %s (%s) is the first that moves %s past %s%s; %d step(s): %s", termtext.ShortID(c.ID), c.Subject, first.Bench, pct(s.o.Threshold), by, len(s.r.Changes), strings.Join(parts, "; "))
}

func (s *search) index(id string) int {
	for i, c := range s.cs {
		if c.ID == id {
			return i
		}
	}
	return -1
}

// DescribeChange is one step in words: commit, bench, ratio and what it
// was against, the time beside it.
func DescribeChange(c Change) string {
	id := termtext.ShortID(c.Commit)
	against := "parent"
	if !c.AgainstParent {
		against = termtext.ShortID(c.Against) + " (the nearest tested commit before it)"
	}
	metric := c.Metric
	if metric == "" {
		metric = "metric"
	}
	out := fmt.Sprintf("%s %s ×%.3f [%.3f, %.3f] by %s vs %s", id, c.Bench, c.Ratio, c.Interval[0], c.Interval[1], metric, against)
	if len(c.TimeInterval) == 2 {
		out += fmt.Sprintf(", time ×%.3f [%.3f, %.3f]", c.TimeRatio, c.TimeInterval[0], c.TimeInterval[1])
	}
	if c.TimeOnly {
		out += " (time only)"
	}
	if c.Note != "" {
		out += " (" + c.Note + ")"
	}
	return out
}
