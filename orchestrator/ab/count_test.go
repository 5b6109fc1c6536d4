package ab

import (
	"context"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// ab counts by run's rule: a threaded program's counts (or runs that
// disagree) are count_unstable and give no instruction ratio; agreeing
// runs give the exact ratio of the sides' medians.
func TestCompareCountsByRunsRule(t *testing.T) {
	f := &fakeSampler{rng: rand.New(rand.NewSource(5)),
		times: map[string]float64{"a1": 1e6, "b1": 1e6, "a2": 1e6, "b2": 1e6, "a3": 1e6, "b3": 1e6},
		irs:   map[string]uint64{"a1": 1_000_000, "b1": 1_000_000, "a2": 1_000_000, "b2": 2_000_000, "a3": 10, "b3": 10},
		multi: map[string]bool{"b1": true}}
	pairs := []Pair{pair("threaded", "a1", "b1"), pair("exact", "a2", "b2"), pair("jumpy", "a3", "b3")}
	res := Compare(context.Background(), f, pairs, Settings{Seed: 1, MaxRounds: 6})
	by := map[string]Bench{}
	for _, b := range res.Benches {
		by[b.Name] = b
	}
	if b := by["threaded"]; b.CountStatus != outcome.CountUnstable || b.InstrRatio != 0 || !strings.Contains(b.Detail, "B: the program started a second thread") {
		t.Errorf("threaded: count %s, ratio %v, detail %q", b.CountStatus, b.InstrRatio, b.Detail)
	}
	if b := by["exact"]; b.CountStatus != outcome.OK || b.InstrRatio != 2 {
		t.Errorf("exact: count %s, ratio %v", b.CountStatus, b.InstrRatio)
	}
	// 10 and 11 instructions: a 10 % spread, past the determinism rule.
	if b := by["jumpy"]; b.CountStatus != outcome.CountUnstable || b.InstrRatio != 0 {
		t.Errorf("jumpy: count %s, ratio %v", b.CountStatus, b.InstrRatio)
	}
	var grid strings.Builder
	report.ABGrid(&grid, res)
	if !strings.Contains(grid.String(), "unstable") || !strings.Contains(grid.String(), "2.0000") {
		t.Errorf("the grid does not say unstable and 2.0000:\n%s", grid.String())
	}
}

// A side that counted too few runs has failed counts, not a ratio.
func TestCompareCountFailed(t *testing.T) {
	f := &fakeSampler{rng: rand.New(rand.NewSource(5)), times: map[string]float64{"a": 1e6, "b": 1e6}, irs: map[string]uint64{"a": 100, "b": 100}}
	p := pair("one", "a", "b")
	p.B.Job.Count = &wire.CountJob{Runs: 1}
	res := Compare(context.Background(), f, []Pair{p}, Settings{Seed: 1, MaxRounds: 6})
	if b := res.Benches[0]; b.CountStatus != outcome.CountFailed || b.InstrRatio != 0 || !strings.Contains(b.Detail, "B: 1 counted runs") {
		t.Errorf("count %s, ratio %v, detail %q", b.CountStatus, b.InstrRatio, b.Detail)
	}
}

// ab plans its count jobs as run does: the determinism rule's runs, each
// bounded as run bounds a first counted run where nothing was timed (the
// instrument's slowdown over the sample timeout, capped).
func TestCountJobIsRunsJob(t *testing.T) {
	c, ok := suite.ByName("c")
	if !ok {
		t.Fatal("no c toolchain")
	}
	got, why := countJob(c, "fn_call", 7e9)
	want, wantWhy := runner.CountJobTimed(c, "fn_call", judge.MinCountedRuns, 7e9)
	if why != wantWhy || got == nil || got.Runs != want.Runs || got.TimeoutNs != want.TimeoutNs || got.Runs < judge.MinCountedRuns ||
		got.TimeoutNs != int64(min(runner.CountTimeout(7e9), runner.DefaultCountTimeout)) {
		t.Fatalf("ab's count job %+v (%q), run's %+v (%q)", got, why, want, wantWhy)
	}
}

// ab --metric=instructions holds B/A of the region counts to B/A of the
// whole processes': B moved its work out of the region (a fifth of A's
// region, the same process), so the pair is judged on the processes and
// says so; an honest B that halves its region halves its process too and
// keeps the region's ratio; sides without a witness are left as they are.
func TestCountsJudgeOnTheWitness(t *testing.T) {
	side := func(region, process uint64) []runner.Count {
		r := []runner.Count{{Status: wire.CountOK, Scope: wire.ScopeRegion, Ir: region}, {Status: wire.CountOK, Scope: wire.ScopeRegion, Ir: region}}
		if process > 0 {
			r[0].Set(wire.InstructionsProcess, int64(process))
		}
		return r
	}
	job := &wire.CountJob{Runs: 2, Region: true}
	p := Pair{Name: "x", A: Side{Job: runner.Job{Count: job}}, B: Side{Job: runner.Job{Count: job}}}
	for _, c := range []struct {
		name          string
		a, b          []runner.Count
		ratio         float64
		judgedProcess bool
	}{
		{"moved out", side(5_000_000, 5_100_000), side(1_000_000, 5_100_000), 1, true},
		{"region over its process", side(5_000_000, 5_100_000), side(6_000_000, 5_100_000), 1, true},
		{"honestly halved", side(5_000_000, 5_100_000), side(2_500_000, 2_600_000), 0.5, false},
		{"no witness", side(5_000_000, 0), side(1_000_000, 0), 0.2, false},
	} {
		b := Bench{Name: c.name, Rounds: 3}
		judgeCounts(&b, p, c.a, c.b)
		said := strings.Contains(b.Detail, "the verdict on instructions is the processes'")
		if b.CountStatus != outcome.OK || math.Abs(b.InstrRatio-c.ratio) > 0.01 || said != c.judgedProcess {
			t.Errorf("%s: %s ratio %.3f (want %.3f), detail %q", c.name, b.CountStatus, b.InstrRatio, c.ratio, b.Detail)
		}
	}
}
