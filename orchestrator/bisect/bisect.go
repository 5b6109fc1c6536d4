package bisect

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

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

func (c Commit) short() string {
	if len(c.ID) > 12 {
		return c.ID[:12]
	}
	return c.ID
}

// Side is one built commit, as the Judge compares it.
type Side struct {
	Commit       Commit
	Image        string  // what the Judge runs (a toolchain image)
	BuildSeconds float64 // what building it cost (0: found built)
}

// Ratio is one bench's y/x of the metric with its interval.
type Ratio struct {
	Ratio float64 `json:"ratio"`
	Low   float64 `json:"ratio_low"`
	High  float64 `json:"ratio_high"`
}

// Judge builds commits and compares two builds. Build's error wraps
// ErrNotBuilt when the commit itself does not build (it is skipped); any
// other error ends the bisect. Compare gives, per bench, y over x.
type Judge interface {
	Build(ctx context.Context, c Commit) (Side, error)
	Compare(ctx context.Context, x, y Side, benches []string) (map[string]Ratio, error)
}

// ErrNotBuilt marks a commit that does not build.
var ErrNotBuilt = errors.New("commit does not build")

// ErrEndNotBuilt marks a good or bad end that could not be built: there is
// nothing to search against.
var ErrEndNotBuilt = errors.New("an end of the range was not built")

// Outcome is how a bisect ended.
type Outcome string

const (
	Found        Outcome = "found"         // First is the first commit that moves the benches
	EndsSame     Outcome = "ends_same"     // good and bad do not differ past the threshold: no search
	NonMonotonic Outcome = "non_monotonic" // At is like neither end: reported, not guessed
	AmongSkipped Outcome = "among_skipped" // the first move is one of Range, which did not all build
)

// Verdicts of a step.
const (
	VerdictGoodEnd = "good_end"
	VerdictBadEnd  = "bad_end"
	VerdictGood    = "good"    // like the good end
	VerdictBad     = "bad"     // like the bad end
	VerdictNeither = "neither" // closer to neither end, or benches disagree
	VerdictSkipped = "skipped" // did not build
)

// Step is one commit the bisect built (or tried to) and judged.
type Step struct {
	Commit       Commit           `json:"commit"`
	Verdict      string           `json:"verdict"`
	BuildSeconds float64          `json:"build_seconds"`
	VsGood       map[string]Ratio `json:"vs_good,omitempty"` // this commit over the good end
	VsBad        map[string]Ratio `json:"vs_bad,omitempty"`  // the bad end over this commit
	Note         string           `json:"note,omitempty"`
}

// Result is a bisect's answer with every step's figures.
type Result struct {
	Outcome      Outcome          `json:"outcome"`
	Good         Commit           `json:"good"`
	Bad          Commit           `json:"bad"`
	Commits      int              `json:"commits"` // after good, up to and with bad
	Threshold    float64          `json:"threshold"`
	Ends         map[string]Ratio `json:"ends,omitempty"` // bad over good
	Moved        []string         `json:"moved,omitempty"`
	Unmoved      []string         `json:"unmoved,omitempty"`
	First        *Commit          `json:"first,omitempty"` // Found
	At           *Commit          `json:"at,omitempty"`    // NonMonotonic
	Range        []Commit         `json:"range,omitempty"` // AmongSkipped
	Steps        []Step           `json:"steps"`
	BuildSeconds float64          `json:"build_seconds"` // every step's build, summed
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
	s := &search{j: j, o: o, cs: o.Commits, skipped: map[int]bool{}}
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
	dir       map[string]int // moved benches: +1 bad is slower, -1 faster
	skipped   map[int]bool
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
	fmt.Fprintf(s.o.Log, "bisect: comparing the ends %s and %s\n", s.r.Good.short(), s.r.Bad.short())
	if s.r.Ends, err = s.j.Compare(ctx, s.good, s.bad, s.o.Benches); err != nil {
		return fmt.Errorf("comparing the ends: %w", err)
	}
	s.dir = map[string]int{}
	for _, b := range s.o.Benches {
		r, ok := s.r.Ends[b]
		if d := move(r, s.o.Threshold); ok && d != 0 {
			s.dir[b] = d
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
	fmt.Fprintf(s.o.Log, "bisect: building the %s end %s %s\n", strings.TrimPrefix(flag, "--"), c.short(), c.Subject)
	side, err := s.j.Build(ctx, c)
	st := Step{Commit: c, Verdict: verdict, BuildSeconds: side.BuildSeconds}
	if err != nil {
		st.Note = termtext.Clean(err.Error()) // it quotes the build log's tail
		s.add(st)
		if ctx.Err() != nil {
			return side, err
		}
		return side, fmt.Errorf("%s=%s (%s): %w: %s (an end must build; choose another %s)", flag, c.short(), c.Subject, ErrEndNotBuilt, st.Note, flag)
	}
	s.add(st)
	return side, nil
}

func (s *search) add(st Step) {
	s.r.Steps = append(s.r.Steps, st)
	s.r.BuildSeconds += st.BuildSeconds
}

// walk is the binary search between the last good (lo) and the first bad
// (hi) index.
func (s *search) walk(ctx context.Context) error {
	lo, hi := 0, len(s.cs)-1
	for hi-lo > 1 {
		mid, ok := s.pick(lo, hi)
		if !ok {
			s.r.Outcome, s.r.Range = AmongSkipped, append([]Commit(nil), s.cs[lo+1:hi+1]...)
			s.r.Detail = fmt.Sprintf("the first commit that moves %s is one of these %d, and all but the last did not build: %s", strings.Join(s.r.Moved, ", "), hi-lo, shorts(s.r.Range))
			return nil
		}
		v, err := s.test(ctx, mid)
		if err != nil {
			return err
		}
		switch v {
		case VerdictSkipped:
			s.skipped[mid] = true
		case VerdictGood:
			lo = mid
		case VerdictBad:
			hi = mid
		default:
			c := s.cs[mid]
			s.r.Outcome, s.r.At = NonMonotonic, &c
			s.r.Detail = fmt.Sprintf("commit %s (%s) is like neither end: %s; the range is not monotonic, so no commit is named", c.short(), c.Subject, s.r.Steps[len(s.r.Steps)-1].Note)
			return nil
		}
	}
	c := s.cs[hi]
	s.r.Outcome, s.r.First = Found, &c
	s.r.Detail = fmt.Sprintf("commit %s (%s) is the first that moves %s past %s", c.short(), c.Subject, strings.Join(s.r.Moved, ", "), pct(s.o.Threshold))
	return nil
}

// pick is the untested, buildable-so-far commit strictly between lo and hi
// nearest the middle (the lower on a tie).
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

// test builds commit i and judges it against both ends.
func (s *search) test(ctx context.Context, i int) (string, error) {
	c := s.cs[i]
	fmt.Fprintf(s.o.Log, "bisect: building %s %s\n", c.short(), c.Subject)
	side, err := s.j.Build(ctx, c)
	st := Step{Commit: c, BuildSeconds: side.BuildSeconds}
	if err != nil {
		if !errors.Is(err, ErrNotBuilt) || ctx.Err() != nil {
			return "", fmt.Errorf("building %s: %w", c.short(), err)
		}
		st.Verdict, st.Note = VerdictSkipped, termtext.Clean(err.Error())
		fmt.Fprintf(s.o.Log, "bisect: %s does not build, skipped (as git bisect skip): %s\n", c.short(), st.Note)
		s.add(st)
		return VerdictSkipped, nil
	}
	if st.VsGood, err = s.j.Compare(ctx, s.good, side, s.r.Moved); err != nil {
		return "", fmt.Errorf("comparing %s with the good end: %w", c.short(), err)
	}
	if st.VsBad, err = s.j.Compare(ctx, side, s.bad, s.r.Moved); err != nil {
		return "", fmt.Errorf("comparing %s with the bad end: %w", c.short(), err)
	}
	st.Verdict, st.Note = s.classify(st.VsGood, st.VsBad)
	fmt.Fprintf(s.o.Log, "bisect: %s is %s (%s)\n", c.short(), st.Verdict, st.Note)
	s.add(st)
	return st.Verdict, nil
}

// classify says which end a commit is like: every moved bench must be the
// same as one end and differ from the other in the ends' direction.
func (s *search) classify(vsGood, vsBad map[string]Ratio) (string, string) {
	var seen []string
	byVerdict := map[string][]string{}
	for _, b := range s.r.Moved {
		v := VerdictNeither
		g, okG := vsGood[b]
		k, okB := vsBad[b]
		switch {
		case !okG || !okB:
			v = "not compared"
		case move(g, s.o.Threshold) == 0 && move(k, s.o.Threshold) == s.dir[b]:
			v = VerdictGood
		case move(g, s.o.Threshold) == s.dir[b] && move(k, s.o.Threshold) == 0:
			v = VerdictBad
		}
		if len(byVerdict[v]) == 0 {
			seen = append(seen, v)
		}
		byVerdict[v] = append(byVerdict[v], fmt.Sprintf("%s %s vs good, %s vs bad", b, fmtRatio(g), fmtRatio(k)))
	}
	var parts []string
	for _, v := range seen {
		parts = append(parts, v+": "+strings.Join(byVerdict[v], "; "))
	}
	note := strings.Join(parts, " | ")
	if len(seen) == 1 && (seen[0] == VerdictGood || seen[0] == VerdictBad) {
		return seen[0], note
	}
	return VerdictNeither, note
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
	return fmt.Sprintf("×%.3f [%.3f, %.3f]", r.Ratio, r.Low, r.High)
}

func pct(t float64) string { return fmt.Sprintf("%g %%", t*100) }

func shorts(cs []Commit) string {
	var out []string
	for _, c := range cs {
		out = append(out, c.short())
	}
	return strings.Join(out, " ")
}
