package plan

import (
	"math/rand"
	"reflect"
	"testing"
)

func TestRoundRobinSendsLiveUnitsInPlanOrder(t *testing.T) {
	jobs := map[int]int{0: 1, 2: 2, 3: 1}
	got := RoundRobin{N: 3}.Order([]int{0, 2, 3}, func(u int) int { return jobs[u] })
	want := []Step{{0, 0}, {2, 0}, {2, 1}, {3, 0}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Order = %v, want %v", got, want)
	}
}

// Interleaved draws as ab always drew: one shuffle of the live units, then
// a coin per unit in the shuffled order, B first on 1; a recorded seed
// reproduces a result's order.
func TestInterleavedDrawsAsTheSeedSays(t *testing.T) {
	live := []int{0, 1, 2, 3, 4}
	two := func(int) int { return 2 }
	got := Interleaved{N: 9, Rand: rand.New(rand.NewSource(42))}.Order(live, two)

	rng := rand.New(rand.NewSource(42))
	order := append([]int(nil), live...)
	rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	var want []Step
	for _, u := range order {
		if rng.Intn(2) == 1 {
			want = append(want, Step{u, 1}, Step{u, 0})
		} else {
			want = append(want, Step{u, 0}, Step{u, 1})
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Order = %v, want %v", got, want)
	}
	seen := map[Step]bool{}
	for _, s := range got {
		seen[s] = true
	}
	if len(seen) != 10 || len(got) != 10 {
		t.Fatalf("Order = %v: want each side of each unit once", got)
	}
	if reflect.DeepEqual(got, RoundRobin{}.Order(live, two)) {
		t.Fatal("seed 42 left the plan order as it was: not shuffled")
	}
	if live[0] != 0 || live[4] != 4 {
		t.Fatalf("Order shuffled its caller's slice: %v", live)
	}
}
