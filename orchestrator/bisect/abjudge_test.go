package bisect

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/ab"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/subject"
)

// fakeSteps stands in for what a bisect step does on the engine: hale at
// commit cI builds unless broken[I] (a failed build, as the image builder reports
// one), and an A/B of two builds gives, per bench, the quotient of the two
// commits' levels: time with a ±0.5 % interval, and the exact instruction
// ratio for a bench in instr (the count lane counts it). No sample is
// made up: the ratios are what ab's result would carry.
type fakeSteps struct {
	time, instr map[string][]float64
	broken      map[int]bool
	builds      []int    // the commits built, in order
	abs         [][2]int // the A/Bs run, A's commit then B's
}

func index(t *testing.T, o image.Options) int {
	var i int
	if _, err := fmt.Sscanf(o.Subject.(subject.Build).Ref, "c%d", &i); err != nil {
		t.Fatalf("the subject build is not hale at a commit: %+v", o.Subject)
	}
	return i
}

func (f *fakeSteps) steps(t *testing.T) Steps { return fakeStepsOf{f, t} }

type fakeStepsOf struct {
	f *fakeSteps
	t *testing.T
}

func (s fakeStepsOf) Toolchain(_ context.Context, o image.Options) (image.Toolchain, time.Duration, error) {
	i := index(s.t, o)
	s.f.builds = append(s.f.builds, i)
	if s.f.broken[i] {
		return image.Toolchain{Lang: "hale", Status: image.BuildFailed, Reason: "cargo: error[E0425]"}, 10 * time.Second, nil
	}
	return image.Toolchain{Lang: "hale", Status: image.Available, Ref: fmt.Sprintf("halebench/toolchain-hale:c%d", i)}, 100 * time.Second, nil
}

func (s fakeStepsOf) AB(_ context.Context, p *ab.Plan) (*ab.Result, error) {
	a, b := index(s.t, p.A.Images), index(s.t, p.B.Images)
	s.f.abs = append(s.f.abs, [2]int{a, b})
	res := &ab.Result{}
	for _, name := range p.Names {
		tl := s.f.time[name]
		r := tl[b] / tl[a]
		bench := ab.Bench{Name: name, Lang: "hale", Ratio: r, RatioLow: r * 0.995, RatioHigh: r * 1.005, CountStatus: outcome.NotCounted}
		if il, ok := s.f.instr[name]; ok {
			bench.InstrRatio, bench.CountStatus = il[b]/il[a], outcome.OK
		}
		res.Benches = append(res.Benches, bench)
	}
	// Another language's figures come with hale's: not compared.
	res.Benches = append(res.Benches, ab.Bench{Name: p.Names[0], Lang: "c", Ratio: 9, RatioLow: 8, RatioHigh: 10})
	return res, nil
}

func hist(n int) []Commit {
	cs := make([]Commit, n)
	for i := range cs {
		cs[i] = Commit{ID: fmt.Sprintf("c%d", i), Subject: fmt.Sprintf("subject %d", i)}
	}
	return cs
}

// levels is n commits' levels: lo before at, hi from it.
func levels(n, at int, lo, hi float64) []float64 {
	l := make([]float64, n)
	for i := range l {
		l[i] = lo
		if i >= at {
			l[i] = hi
		}
	}
	return l
}

// runJudge bisects n commits with the ab-backed judge on f.
func runJudge(t *testing.T, f *fakeSteps, n int, metricName string, benches ...string) (*Result, error) {
	t.Helper()
	cfg := Config{Suite: "../..", Benches: benches, Metric: metricName, Threshold: DefaultThreshold,
		Hale: subject.Build{Git: "/nowhere/hale.git"}, Log: testWriter{t}}
	j := NewABJudge(cfg, f.steps(t))
	return Run(context.Background(), j, Options{Commits: hist(n), Benches: benches, Log: testWriter{t}})
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// A whole bisect through the ab-backed judge, on fakes of its engine steps:
// the ends, a step, a commit that does not build, a bench that moves back.
func TestBisectThroughTheABJudge(t *testing.T) {
	cases := []struct {
		name        string
		n           int
		time, instr map[string][]float64
		broken      map[int]bool
		metric      string
		outcome     Outcome
		changes     string // commit:bench:metric, oldest first
		skipped     string
	}{
		{name: "a time step", n: 9, time: map[string][]float64{"fn_call": levels(9, 5, 1, 1.3)},
			outcome: Found, changes: "c5:fn_call:time"},
		{name: "an instructions step, time beside", n: 9,
			time:  map[string][]float64{"fn_call": levels(9, 3, 1, 1.2)},
			instr: map[string][]float64{"fn_call": levels(9, 3, 1, 1.5)}, outcome: Found, changes: "c3:fn_call:instructions"},
		{name: "a commit that does not build", n: 9, time: map[string][]float64{"fn_call": levels(9, 6, 1, 1.3)},
			broken: map[int]bool{4: true}, outcome: Found, changes: "c6:fn_call:time", skipped: "c4"},
		{name: "the step among commits that do not build", n: 9, time: map[string][]float64{"fn_call": levels(9, 5, 1, 1.3)},
			broken: map[int]bool{4: true, 5: true}, outcome: AmongSkipped, changes: "c6:fn_call:time", skipped: "c4 c5"},
		{name: "non-monotonic: down then up", n: 9,
			instr: map[string][]float64{"fn_modular": {1, 1, 1, 1, 0.8, 0.8, 1.3, 1.3, 1.3}},
			time:  map[string][]float64{"fn_modular": {1, 1, 1, 1, 0.8, 0.8, 1.3, 1.3, 1.3}}, metric: "instructions",
			outcome: Found, changes: "c4:fn_modular:instructions c6:fn_modular:instructions"},
		{name: "ends the same", n: 9, time: map[string][]float64{"fn_call": levels(9, 5, 1, 1.005)}, outcome: EndsSame},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := &fakeSteps{time: c.time, instr: c.instr, broken: c.broken}
			var benches []string
			for b := range c.time {
				benches = append(benches, b)
			}
			r, err := runJudge(t, f, c.n, c.metric, benches...)
			if err != nil {
				t.Fatal(err)
			}
			if r.Outcome != c.outcome {
				t.Fatalf("outcome %s (%s), want %s", r.Outcome, r.Detail, c.outcome)
			}
			var changes, skipped []string
			for _, ch := range r.Changes {
				changes = append(changes, ch.Commit+":"+ch.Bench+":"+ch.Metric)
			}
			for _, st := range r.Steps {
				if st.Verdict == VerdictSkipped {
					skipped = append(skipped, st.Commit.ID)
					if !strings.Contains(st.Note, "cargo: error[E0425]") {
						t.Errorf("skip %s does not say why: %q", st.Commit.ID, st.Note)
					}
				}
			}
			if got := strings.Join(changes, " "); got != c.changes {
				t.Errorf("changes %q, want %q (%s)", got, c.changes, r.Detail)
			}
			if got := strings.Join(skipped, " "); got != c.skipped {
				t.Errorf("skipped %q, want %q", got, c.skipped)
			}
			checkJudged(t, f, r)
		})
	}
}

// checkJudged: the ends are built first, every commit once, each build's
// seconds are the step's, and every A/B compares two built commits, the
// older as A.
func checkJudged(t *testing.T, f *fakeSteps, r *Result) {
	t.Helper()
	if len(f.builds) < 2 || f.builds[0] != 0 || f.builds[1] != r.Commits {
		t.Errorf("the ends were not built first: %v", f.builds)
	}
	seen, want := map[int]bool{}, 0.0
	for _, i := range f.builds {
		if seen[i] {
			t.Errorf("c%d built twice: %v", i, f.builds)
		}
		seen[i] = true
		want += 100
		if f.broken[i] {
			want -= 90
		}
	}
	if r.BuildSeconds != want {
		t.Errorf("build seconds %g, want %g", r.BuildSeconds, want)
	}
	for _, p := range f.abs {
		if p[0] >= p[1] || f.broken[p[0]] || f.broken[p[1]] || !seen[p[0]] || !seen[p[1]] {
			t.Errorf("A/B of c%d and c%d", p[0], p[1])
		}
	}
}

// An end that does not build ends the bisect (exit 2's error); an engine
// that fails is no skip.
func TestABJudgeEndsAndErrors(t *testing.T) {
	f := &fakeSteps{time: map[string][]float64{"fn_call": levels(5, 2, 1, 1.3)}, broken: map[int]bool{4: true}}
	if _, err := runJudge(t, f, 5, "", "fn_call"); !errors.Is(err, ErrEndNotBuilt) {
		t.Errorf("a bad end that does not build: %v", err)
	}
	j := NewABJudge(Config{Suite: "../..", Hale: subject.Build{Git: "/nowhere"}}, failing{})
	if _, err := j.Build(context.Background(), Commit{ID: "c1"}); err == nil || errors.Is(err, ErrNotBuilt) {
		t.Errorf("an engine error is a skip or nothing: %v", err)
	}
	j.steps = unavailable{}
	if _, err := j.Build(context.Background(), Commit{ID: "c1"}); err == nil || errors.Is(err, ErrNotBuilt) || !strings.Contains(err.Error(), "no hale-cli") {
		t.Errorf("an unavailable toolchain is a skip or unexplained: %v", err)
	}
}

type failing struct{}

func (failing) Toolchain(context.Context, image.Options) (image.Toolchain, time.Duration, error) {
	return image.Toolchain{}, 0, errors.New("engine unreachable")
}
func (failing) AB(context.Context, *ab.Plan) (*ab.Result, error) {
	return nil, errors.New("engine unreachable")
}

type unavailable struct{ failing }

func (unavailable) Toolchain(context.Context, image.Options) (image.Toolchain, time.Duration, error) {
	return image.Toolchain{Status: image.Unavailable, Reason: "no hale-cli"}, 0, nil
}

// judgeRatio: the default metric is instructions with time beside where
// hale is counted, time where it is not; --metric picks one.
func TestJudgeRatio(t *testing.T) {
	tr := Ratio{Ratio: 1.125, Low: 1.013, High: 1.21}
	r, err := judgeRatio("", "fn", tr, 1, "not counted")
	if err != nil || r.Metric != "instructions" || r.Ratio != 1 || r.Low != 1 || r.Time == nil || r.Time.Ratio != 1.125 || r.Time.Metric != "time" {
		t.Errorf("default, counted: %+v %v", r, err)
	}
	if r, err := judgeRatio("", "fn", tr, 0, "not counted"); err != nil || r.Metric != "time" || r.Ratio != 1.125 || r.Time != nil {
		t.Errorf("default, not counted: %+v %v", r, err)
	}
	if r, err := judgeRatio("time", "fn", tr, 1.86, "not counted"); err != nil || r.Metric != "time" || r.Ratio != 1.125 {
		t.Errorf("time: %+v %v", r, err)
	}
	if r, err := judgeRatio("instructions", "fn", tr, 1.86, "not counted"); err != nil || r.Ratio != 1.86 || r.Time != nil {
		t.Errorf("instructions: %+v %v", r, err)
	}
	if _, err := judgeRatio("instructions", "fn", tr, 0, "not counted"); err == nil || !strings.Contains(err.Error(), "--metric=time") {
		t.Errorf("instructions, not counted: %v", err)
	}
}
