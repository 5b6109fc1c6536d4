package ab

import (
	"context"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
)

// ab's judge held to the witness on a fake sampler's samples (on the
// engine, two suites whose C fn_call differ so: docs/security.md): B's
// program does the same 100 ms of work as A's and prints a hundredth of
// it; B/A of the region says 100 times faster, the wall time says the
// same. An honest B twice as fast stays faster; an A/A pair stays same.
func TestABJudgesOnTheWitness(t *testing.T) {
	abWitnessCase(t, map[string]float64{"honest": 100e6, "forged": 100e6, "twice": 50e6, "again": 100e6},
		[]Pair{pair("forged", "honest", "forged"), pair("twice", "honest", "twice"), pair("aa", "honest", "again")},
		map[string]outcome.Status{"forged": outcome.Same, "twice": outcome.Faster, "aa": outcome.Same}, "forged")
}

// A short bench (a 10 ms loop, 2 ms outside it) whose region is forged to
// a hundredth leaves less outside than the growth rule's tolerance, but
// the time it claims to save is still in the process: ab judges on the
// wall time (same), in either order of the sides; an honest halving stays
// faster.
func TestABWitnessOfAShortBench(t *testing.T) {
	abWitnessCase(t, map[string]float64{"honest": 10e6, "forged": 10e6, "half": 5e6},
		[]Pair{pair("forged", "honest", "forged"), pair("reversed", "forged", "honest"), pair("half", "honest", "half")},
		map[string]outcome.Status{"forged": outcome.Same, "reversed": outcome.Same, "half": outcome.Faster}, "forged", "reversed")
}

// abWitnessCase compares pairs of images with times (2 ms outside each
// region; the image "forged" prints a hundredth of its region) and wants
// each bench's verdict, judged on the wall time for exactly the benches
// named.
func abWitnessCase(t *testing.T, times map[string]float64, pairs []Pair, want map[string]outcome.Status, onWall ...string) {
	t.Helper()
	f := &fakeSampler{rng: rand.New(rand.NewSource(5)), outside: 2e6, times: times, printed: map[string]float64{"forged": 0.01}}
	res := Compare(context.Background(), f, pairs, Settings{Seed: 9, Threshold: 0.03})
	for _, b := range res.Benches {
		witnessed := strings.Contains(b.Detail, "the verdict is the wall time's")
		if b.Verdict != want[b.Name] || witnessed != slices.Contains(onWall, b.Name) {
			t.Errorf("%s: %s (region B/A %.3f after %d rounds; %q), want %s", b.Name, b.Verdict, b.Ratio, b.Rounds, b.Detail, want[b.Name])
		}
	}
}
