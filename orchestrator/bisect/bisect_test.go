package bisect

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// fakeJudge: commit i has a level per bench (its metric); a ratio is the
// levels' quotient with a ±0.5 % interval. Commits in broken do not build;
// fail makes Build fail as an engine would.
type fakeJudge struct {
	levels map[string][]float64
	broken map[int]bool
	fail   map[int]error
	built  []int
	// times, when set for a bench, make it counted: levels are its
	// instructions and times its time.
	times    map[string][]float64
	compared [][2]int
}

func (f *fakeJudge) Build(_ context.Context, c Commit) (Side, error) {
	var i int
	fmt.Sscanf(c.ID, "c%d", &i)
	f.built = append(f.built, i)
	if err := f.fail[i]; err != nil {
		return Side{}, err
	}
	if f.broken[i] {
		return Side{Commit: c, BuildSeconds: 10}, fmt.Errorf("cargo: error[E0425]: %w", ErrNotBuilt)
	}
	return Side{Commit: c, Image: "img-" + c.ID, BuildSeconds: 100}, nil
}

func (f *fakeJudge) Compare(_ context.Context, x, y Side, benches []string) (map[string]Ratio, error) {
	var a, b int
	fmt.Sscanf(x.Commit.ID, "c%d", &a)
	fmt.Sscanf(y.Commit.ID, "c%d", &b)
	if x.Image == "" || y.Image == "" {
		return nil, fmt.Errorf("compared %s with %s, not both built", x.Commit.ID, y.Commit.ID)
	}
	f.compared = append(f.compared, [2]int{a, b})
	out := map[string]Ratio{}
	for _, name := range benches {
		l, ok := f.levels[name]
		if !ok {
			continue // this bench is missing on a side
		}
		r := l[b] / l[a]
		out[name] = Ratio{Ratio: r, Low: r * 0.995, High: r * 1.005}
		if tl, ok := f.times[name]; ok { // counted: instructions exact, time beside
			tr := tl[b] / tl[a]
			out[name] = Ratio{Ratio: r, Low: r, High: r, Metric: "instructions", Time: &Ratio{Ratio: tr, Low: tr * 0.99, High: tr * 1.01, Metric: "time"}}
		}
	}
	return out, nil
}

func commits(n int) []Commit {
	cs := make([]Commit, n)
	for i := range cs {
		cs[i] = Commit{ID: fmt.Sprintf("c%d", i), Subject: fmt.Sprintf("subject %d", i)}
	}
	return cs
}

// steps returns a level list of n commits that is lo before at and hi from it.
func step(n, at int, lo, hi float64) []float64 {
	l := make([]float64, n)
	for i := range l {
		l[i] = lo
		if i >= at {
			l[i] = hi
		}
	}
	return l
}

func TestBisect(t *testing.T) {
	mid := step(9, 4, 1, 1.3)
	mid[4] = 1.15 // halfway between the ends
	cases := []struct {
		name    string
		n       int
		levels  map[string][]float64
		broken  map[int]bool
		benches []string
		outcome Outcome
		answer  string // First, At, or the Range's ids
		skips   int
	}{
		{"slower at 5", 9, map[string][]float64{"fn_modular": step(9, 5, 1, 1.3)}, nil, nil, Found, "c5", 0},
		{"faster at 1", 9, map[string][]float64{"fn_modular": step(9, 1, 1, 0.7)}, nil, nil, Found, "c1", 0},
		{"the bad end itself", 9, map[string][]float64{"fn_modular": step(9, 8, 1, 1.3)}, nil, nil, Found, "c8", 0},
		{"adjacent ends", 2, map[string][]float64{"fn_modular": step(2, 1, 1, 1.3)}, nil, nil, Found, "c1", 0},
		{"ends same", 9, map[string][]float64{"fn_modular": step(9, 5, 1, 1.01)}, nil, nil, EndsSame, "", 0},
		{"halfway commit: two steps", 9, map[string][]float64{"fn_modular": mid}, nil, nil, Found, "c4", 0},
		{"moves back: two steps", 9, map[string][]float64{"fn_modular": {1, 1, 1, 1, 0.8, 1.3, 1.3, 1.3, 1.3}}, nil, nil, Found, "c4", 0},
		{"benches move at different commits", 9, map[string][]float64{"a": step(9, 3, 1, 1.3), "b": step(9, 6, 1, 1.3)}, nil, nil, Found, "c3", 0},
		{"a skip on the way", 9, map[string][]float64{"fn_modular": step(9, 6, 1, 1.3)}, map[int]bool{4: true}, nil, Found, "c6", 1},
		{"among skipped", 9, map[string][]float64{"fn_modular": step(9, 5, 1, 1.3)}, map[int]bool{4: true, 5: true}, nil, AmongSkipped, "c4 c5 c6", 2},
		{"all skipped", 5, map[string][]float64{"fn_modular": step(5, 2, 1, 1.3)}, map[int]bool{1: true, 2: true, 3: true}, nil, AmongSkipped, "c1 c2 c3 c4", 3},
		{"one bench moves, one does not", 9, map[string][]float64{"a": step(9, 2, 1, 1.3), "b": step(9, 0, 1, 1)}, nil, nil, Found, "c2", 0},
		{"a bench missing is not searched", 9, map[string][]float64{"a": step(9, 7, 1, 1.3)}, nil, []string{"a", "gone"}, Found, "c7", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeJudge{levels: c.levels, broken: c.broken}
			benches := c.benches
			if benches == nil {
				for b := range c.levels {
					benches = append(benches, b)
				}
			}
			var log bytes.Buffer
			r, err := Run(context.Background(), f, Options{Commits: commits(c.n), Benches: benches, Log: &log})
			if err != nil {
				t.Fatal(err)
			}
			if r.Outcome != c.outcome {
				t.Fatalf("outcome %s (%s), want %s", r.Outcome, r.Detail, c.outcome)
			}
			var got string
			switch {
			case r.First != nil:
				got = r.First.ID
			case r.At != nil:
				got = r.At.ID
			case r.Range != nil:
				got = shorts(r.Range)
			}
			if got != c.answer {
				t.Fatalf("answer %q, want %q (%s)", got, c.answer, r.Detail)
			}
			checkSteps(t, r, f, c.skips)
		})
	}
}

// checkSteps: the ends come first, every build is a step with its figures,
// skips are said, and the build seconds add up.
func checkSteps(t *testing.T, r *Result, f *fakeJudge, skips int) {
	t.Helper()
	if len(r.Steps) != len(f.built) || r.Steps[0].Verdict != VerdictGoodEnd || r.Steps[1].Verdict != VerdictBadEnd {
		t.Fatalf("steps %+v for builds %v", r.Steps, f.built)
	}
	once := map[int]bool{}
	for _, i := range f.built {
		if once[i] {
			t.Errorf("commit %d built twice: %v", i, f.built)
		}
		once[i] = true
	}
	if r.Outcome == EndsSame && len(f.built) != 2 {
		t.Errorf("ends same, yet %d builds", len(f.built))
	}
	var total float64
	n := 0
	for _, st := range r.Steps[2:] {
		total += st.BuildSeconds
		switch st.Verdict {
		case VerdictSkipped:
			n++
			if !strings.Contains(st.Note, "does not build") || st.VsBefore != nil {
				t.Errorf("skipped step %+v", st)
			}
		default:
			if len(st.VsBefore) == 0 || len(st.VsAfter) == 0 || st.Before == "" || st.After == "" || st.Commit.Subject == "" {
				t.Errorf("step without its figures: %+v", st)
			}
		}
	}
	if n != skips {
		t.Errorf("%d skipped steps, want %d", n, skips)
	}
	if total+200 != r.BuildSeconds {
		t.Errorf("build seconds %g, steps sum to %g", r.BuildSeconds, total+200)
	}
}

func TestBisectEndNotBuilt(t *testing.T) {
	for _, end := range []int{0, 8} {
		f := &fakeJudge{levels: map[string][]float64{"a": step(9, 3, 1, 1.3)}, broken: map[int]bool{end: true}}
		r, err := Run(context.Background(), f, Options{Commits: commits(9), Benches: []string{"a"}})
		if !errors.Is(err, ErrEndNotBuilt) || !strings.Contains(err.Error(), "does not build") {
			t.Fatalf("end %d not built: %v", end, err)
		}
		if r.Outcome != "" || len(r.Steps) == 0 || r.Steps[len(r.Steps)-1].Note == "" {
			t.Errorf("end %d: result %+v", end, r)
		}
	}
}

// An engine error is not a commit that does not build: it ends the bisect.
func TestBisectBuildErrorIsNotASkip(t *testing.T) {
	engine := errors.New("engine unreachable")
	f := &fakeJudge{levels: map[string][]float64{"a": step(9, 3, 1, 1.3)}, fail: map[int]error{4: engine}}
	r, err := Run(context.Background(), f, Options{Commits: commits(9), Benches: []string{"a"}})
	if !errors.Is(err, engine) || errors.Is(err, ErrNotBuilt) {
		t.Fatalf("got %v", err)
	}
	if r.Outcome != "" {
		t.Errorf("outcome %s after an engine error", r.Outcome)
	}
}

func TestBisectBadInput(t *testing.T) {
	f := &fakeJudge{levels: map[string][]float64{"a": step(2, 1, 1, 1.3)}}
	if _, err := Run(context.Background(), f, Options{Commits: commits(1), Benches: []string{"a"}}); err == nil {
		t.Error("one commit accepted")
	}
	if _, err := Run(context.Background(), f, Options{Commits: commits(2)}); err == nil {
		t.Error("no bench accepted")
	}
}

func TestMove(t *testing.T) {
	cases := []struct {
		r    Ratio
		want int
	}{
		{Ratio{Ratio: 1.3, Low: 1.28, High: 1.32}, 1},
		{Ratio{Ratio: 1.03, Low: 0.99, High: 1.07}, 0}, // past the threshold, but the interval holds 1
		{Ratio{Ratio: 1.01, Low: 1.005, High: 1.015}, 0},
		{Ratio{Ratio: 0.7, Low: 0.69, High: 0.71}, -1},
		{Ratio{Ratio: 0.97, Low: 0.9, High: 1.01}, 0},
		{Ratio{}, 0},
	}
	for _, c := range cases {
		if got := move(c.r, 0.02); got != c.want {
			t.Errorf("move(%+v) = %d, want %d", c.r, got, c.want)
		}
	}
}

// A commit subject and a build's failure are written by others (in CI,
// anyone's pull request): no CI command from either reaches the log, the
// result's details, its steps or its JSON.
func TestHostileSubjectsAndBuildLogs(t *testing.T) {
	cs := commits(6)
	cs[2].Subject = "fix  ##vso[task.setvariable variable=x]1"
	cs[4].Subject = "  ::error::planted\nsecond line ##[error]y"
	cs[5].Subject = "\x1b]0;title\x07bad ##VSO[task.complete]"
	j := &fakeJudge{levels: map[string][]float64{"fn": step(6, 4, 1, 1.3)},
		fail: map[int]error{2: fmt.Errorf("build failed:\n    ::error::from cargo ##vso[task.complete]: %w", ErrNotBuilt)}}
	var log bytes.Buffer
	res, err := Run(context.Background(), j, Options{Commits: cs, Benches: []string{"fn"}, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	js, _ := json.Marshal(res)
	for what, text := range map[string]string{"log": log.String(), "detail": res.Detail, "json": string(js)} {
		if cmd := termtext.CommandLine(text); cmd != "" {
			t.Errorf("the %s carries the CI command %q:\n%s", what, cmd, text)
		}
		if strings.Contains(text, "\x1b") || strings.Contains(text, `\u001b`) {
			t.Errorf("the %s carries an escape: %q", what, text)
		}
	}
	if res.First == nil || res.First.ID != "c4" || !strings.Contains(res.First.Subject, "::error::planted") {
		t.Errorf("the first commit or its subject's text is lost: %s %+v (%s)", res.Outcome, res.First, res.Detail)
	}
	// A build failure whose log prints commands, at an end: the error says
	// it cleaned.
	j = &fakeJudge{fail: map[int]error{0: errors.New("build failed:\n    ::error::from cargo\nwarning ##vso[task.complete]")}}
	_, err = Run(context.Background(), j, Options{Commits: commits(3), Benches: []string{"fn"}})
	if err == nil || termtext.CommandLine(err.Error()) != "" || !strings.Contains(err.Error(), "from cargo") {
		t.Errorf("an end's failure: %v", err)
	}
}
