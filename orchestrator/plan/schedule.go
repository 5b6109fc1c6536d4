package plan

import "math/rand"

// Step is one job a round sends: the Job'th job of the Unit'th unit.
type Step struct{ Unit, Job int }

// Schedule orders a plan's units round by round.
type Schedule interface {
	// Rounds is the most rounds the schedule runs.
	Rounds() int
	// Order is one round's steps over the units still live (in plan
	// order), njobs the number of jobs of each.
	Order(live []int, njobs func(unit int) int) []Step
}

// RoundRobin sends, each of its rounds, every live unit's jobs in plan
// order: a run's languages of one bench, sample after sample, so that a
// machine drifting during the bench moves every language alike.
type RoundRobin struct{ N int }

func (s RoundRobin) Rounds() int { return s.N }

func (s RoundRobin) Order(live []int, njobs func(int) int) []Step {
	var out []Step
	for _, u := range live {
		for j := 0; j < njobs(u); j++ {
			out = append(out, Step{u, j})
		}
	}
	return out
}

// Interleaved is ab's randomized interleaved trials: each round the live
// units in a random order, and a unit's two sides in a random order (a
// coin per unit, drawn in the round's unit order). Rand is the seeded
// source whose draws the seed of a result reproduces.
type Interleaved struct {
	N    int
	Rand *rand.Rand
}

func (s Interleaved) Rounds() int { return s.N }

func (s Interleaved) Order(live []int, njobs func(int) int) []Step {
	order := append([]int(nil), live...)
	s.Rand.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	var out []Step
	for _, u := range order {
		n := njobs(u)
		if n == 2 && s.Rand.Intn(2) == 1 {
			out = append(out, Step{u, 1}, Step{u, 0})
			continue
		}
		for j := 0; j < n; j++ {
			out = append(out, Step{u, j})
		}
	}
	return out
}
