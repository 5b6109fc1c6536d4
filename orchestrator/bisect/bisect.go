package bisect

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/stamp"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// DefaultThreshold is how far a bench must move to count as moved: 2 %, as
// the A/B verdicts use.
const DefaultThreshold = 0.02

// Commit is one commit of the walked history.
type Commit struct {
	ID      string `json:"id"`
	Subject string `json:"subject"`
}

// Side is one built commit, as the Judge compares it.
type Side struct {
	Commit       Commit
	Image        string  // what the Judge runs (a toolchain image)
	BuildSeconds float64 // what building it cost (0: found built)
}

// Ratio is one bench's y/x of the metric with its interval. Metric names
// it (instructions or time; empty: the caller's choice); Time is the time
// ratio beside an instructions one, when the Judge measured both: a move
// in either is a step.
type Ratio struct {
	Ratio  float64 `json:"ratio"`
	Low    float64 `json:"ratio_low"`
	High   float64 `json:"ratio_high"`
	Metric string  `json:"metric,omitempty"`
	Time   *Ratio  `json:"time,omitempty"`
}

// Judge builds commits and compares two builds. Build's error wraps
// ErrNotBuilt when the commit itself does not build (it is skipped); any
// other error ends the bisect. Compare gives, per bench, y over x, for
// any two built commits (the search compares a commit with the tested
// commits either side of it); Build is asked once per commit.
type Judge interface {
	Build(ctx context.Context, c Commit) (Side, error)
	Compare(ctx context.Context, x, y Side, benches []string) (map[string]Ratio, error)
}

// ErrNotBuilt marks a commit that does not build.
var ErrNotBuilt = errors.New("commit does not build")

// ErrEndNotBuilt marks a good or bad end that could not be built: there is
// nothing to search against.
// It wraps judge.ErrUnmeasured: the subject was not measured (exit 3).
var ErrEndNotBuilt = fmt.Errorf("an end of the range was not built (%w)", judge.ErrUnmeasured)

// Outcome is how a bisect ended.
type Outcome string

const (
	Found        Outcome = "found"         // First is the first commit that moves the benches
	EndsSame     Outcome = "ends_same"     // good and bad do not differ past the threshold: no search
	NonMonotonic Outcome = "non_monotonic" // no longer answered by Run (every step is named): kept for old results
	AmongSkipped Outcome = "among_skipped" // the first move is one of Range, which did not all build
	// Gradual: the ends differ, yet no commit moves past the threshold
	// against the tested commit before it (a drift spread over commits,
	// or noise): nothing is named.
	Gradual Outcome = "gradual"
)

// Verdicts of a step.
const (
	VerdictGoodEnd = "good_end"
	VerdictBadEnd  = "bad_end"
	VerdictGood    = "good"    // like the tested commit before it, moved against the one after
	VerdictBad     = "bad"     // moved against the tested commit before it, like the one after
	VerdictNeither = "neither" // moved against both: a step on each side
	VerdictSame    = "same"    // like both (the segment's move was noise or spread out)
	VerdictSkipped = "skipped" // did not build
)

// Step is one commit the bisect built (or tried to) and judged.
type Step struct {
	Commit       Commit           `json:"commit"`
	Verdict      string           `json:"verdict"`
	BuildSeconds float64          `json:"build_seconds"`
	VsGood       map[string]Ratio `json:"vs_good,omitempty"`   // this commit over the good end (results before steps were named)
	VsBad        map[string]Ratio `json:"vs_bad,omitempty"`    // the bad end over this commit (idem)
	Before       string           `json:"before,omitempty"`    // the tested commit before it in the segment searched
	After        string           `json:"after,omitempty"`     // the tested commit after it
	VsBefore     map[string]Ratio `json:"vs_before,omitempty"` // this commit over Before
	VsAfter      map[string]Ratio `json:"vs_after,omitempty"`  // After over this commit
	Note         string           `json:"note,omitempty"`
}

// Result is a bisect's answer with every step's figures.
type Result struct {
	// Halebench is which halebench wrote the result, as every document
	// it writes records it: stamped when the JSON is written.
	Halebench    *stamp.Tool      `json:"halebench,omitempty"`
	Outcome      Outcome          `json:"outcome"`
	Good         Commit           `json:"good"`
	Bad          Commit           `json:"bad"`
	Commits      int              `json:"commits"` // after good, up to and with bad
	Threshold    float64          `json:"threshold"`
	Ends         map[string]Ratio `json:"ends,omitempty"` // bad over good
	Moved        []string         `json:"moved,omitempty"`
	Unmoved      []string         `json:"unmoved,omitempty"`
	First        *Commit          `json:"first,omitempty"`   // Found: the first step's commit
	At           *Commit          `json:"at,omitempty"`      // NonMonotonic
	Range        []Commit         `json:"range,omitempty"`   // AmongSkipped
	Steps        []Step           `json:"steps"`             // every commit built (or tried), in order
	Changes      []Change         `json:"changes,omitempty"` // every step where a bench moved, oldest first
	BuildSeconds float64          `json:"build_seconds"`     // every step's build, summed
	Detail       string           `json:"detail"`
}

// Options are a bisect's inputs.
type Options struct {
	Commits   []Commit // good, then its first-parent descendants, oldest first, ending with bad
	Benches   []string
	Threshold float64   // 0: DefaultThreshold
	Log       io.Writer // progress (stderr); nil: none
}

// Run bisects. The Result holds every step taken, also when an error ends
// it early.
func Run(ctx context.Context, j Judge, o Options) (*Result, error) {
	if len(o.Commits) < 2 {
		return nil, fmt.Errorf("bisect needs a good and a bad commit, got %d commits", len(o.Commits))
	}
	if len(o.Benches) == 0 {
		return nil, fmt.Errorf("bisect needs at least one bench (--bench=LIST)")
	}
	if o.Threshold <= 0 {
		o.Threshold = DefaultThreshold
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	// A subject is what a commit's author wrote (in CI, anyone's pull
	// request): it is said on stderr, in the details and on stdout, so it
	// is cleaned once here.
	o.Commits = append([]Commit(nil), o.Commits...)
	for i := range o.Commits {
		o.Commits[i].Subject = termtext.Line(o.Commits[i].Subject)
	}
	s := &search{j: j, o: o, cs: o.Commits, skipped: map[int]bool{}, sides: map[int]Side{}, memo: map[[2]int]map[string]Ratio{}}
	s.r = &Result{Good: o.Commits[0], Bad: o.Commits[len(o.Commits)-1], Commits: len(o.Commits) - 1, Threshold: o.Threshold}
	if err := s.ends(ctx); err != nil || s.r.Outcome != "" {
		return s.r, err
	}
	return s.r, s.walk(ctx)
}

type search struct {
	j         Judge
	o         Options
	cs        []Commit
	r         *Result
	good, bad Side
	skipped   map[int]bool
	sides     map[int]Side                // built commits by index
	memo      map[[2]int]map[string]Ratio // comparisons made, by the indices compared
}

// ends builds both ends and compares them: the benches that moved are the
// ones searched for; none moved is EndsSame.
func (s *search) ends(ctx context.Context) error {
	var err error
	if s.good, err = s.buildEnd(ctx, s.r.Good, VerdictGoodEnd, "--good"); err != nil {
		return err
	}
	if s.bad, err = s.buildEnd(ctx, s.r.Bad, VerdictBadEnd, "--bad"); err != nil {
		return err
	}
	fmt.Fprintf(s.o.Log, "bisect: comparing the ends %s and %s\n", termtext.ShortID(s.r.Good.ID), termtext.ShortID(s.r.Bad.ID))
	if s.r.Ends, err = s.j.Compare(ctx, s.good, s.bad, s.o.Benches); err != nil {
		return fmt.Errorf("comparing the ends: %w", err)
	}
	last := len(s.cs) - 1
	s.sides[0], s.sides[last], s.memo[[2]int{0, last}] = s.good, s.bad, s.r.Ends
	for _, b := range s.o.Benches {
		r, ok := s.r.Ends[b]
		if ok && moves(r, s.o.Threshold) {
			s.r.Moved = append(s.r.Moved, b)
		} else {
			s.r.Unmoved = append(s.r.Unmoved, b)
		}
	}
	if len(s.r.Moved) == 0 {
		s.r.Outcome = EndsSame
		s.r.Detail = fmt.Sprintf("the ends do not differ past %s in %s: nothing to bisect (%s)", pct(s.o.Threshold), strings.Join(s.o.Benches, ", "), Figures(s.r.Ends))
	}
	return nil
}

func (s *search) buildEnd(ctx context.Context, c Commit, verdict, flag string) (Side, error) {
	fmt.Fprintf(s.o.Log, "bisect: building the %s end %s %s\n", strings.TrimPrefix(flag, "--"), termtext.ShortID(c.ID), c.Subject)
	side, err := s.j.Build(ctx, c)
	st := Step{Commit: c, Verdict: verdict, BuildSeconds: side.BuildSeconds}
	if err != nil {
		st.Note = termtext.Clean(err.Error()) // it quotes the build log's tail
		s.add(st)
		if ctx.Err() != nil {
			return side, err
		}
		return side, fmt.Errorf("%s=%s (%s): %w: %s (an end must build; choose another %s)", flag, termtext.ShortID(c.ID), c.Subject, ErrEndNotBuilt, st.Note, flag)
	}
	s.add(st)
	return side, nil
}

func (s *search) add(st Step) {
	s.r.Steps = append(s.r.Steps, st)
	s.r.BuildSeconds += st.BuildSeconds
}

// moves says a bench moved: its metric, or the time beside it.
func moves(r Ratio, t float64) bool {
	return move(r, t) != 0 || (r.Time != nil && move(*r.Time, t) != 0)
}

// move is +1 when a ratio (y over x) is past 1+t with its interval above 1,
// -1 when below 1/(1+t) with its interval below 1, else 0.
func move(r Ratio, t float64) int {
	switch {
	case r.Ratio > 1+t && r.Low > 1:
		return 1
	case r.Ratio > 0 && r.Ratio < 1/(1+t) && r.High < 1:
		return -1
	}
	return 0
}

// Figures is a map of ratios as one line, benches in name order ("-" for
// none): the search's details and the CLI's table say them alike.
func Figures(m map[string]Ratio) string {
	if len(m) == 0 {
		return "-"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		out = append(out, k+" "+fmtRatio(m[k]))
	}
	return strings.Join(out, "; ")
}

func fmtRatio(r Ratio) string {
	s := fmt.Sprintf("×%.3f [%.3f, %.3f]", r.Ratio, r.Low, r.High)
	if r.Metric != "" {
		s += " " + r.Metric
	}
	if r.Time != nil {
		s += fmt.Sprintf(", time ×%.3f [%.3f, %.3f]", r.Time.Ratio, r.Time.Low, r.Time.High)
	}
	return s
}

func pct(t float64) string { return fmt.Sprintf("%g %%", t*100) }

func shorts(cs []Commit) string {
	var out []string
	for _, c := range cs {
		out = append(out, termtext.ShortID(c.ID))
	}
	return strings.Join(out, " ")
}
