// stream_aggregator (Go sibling)
//
// Workload: an Aggregator subscribed to "bench.sample" before t0 (a map[string]func(Sample)
// router). Timed: 200,000 publishes of Sample{value: (31*(S+i)+7) mod 1000}; each publish looks
// the subject string up in the map, then calls the func value, which keeps count, sum, min and
// max.
// Fairness: S = HALEBENCH_SEED (run time) so the values cannot fold; publish is
// //go:noinline so the map lookup happens per publish. Delivery is a direct synchronous call
// (no queue), the same shape every sibling uses.
package main

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"time"
)

const iters = 200000

type Sample struct{ value int64 }

type Aggregator struct {
	count, sum, min, max int64
}

func (a *Aggregator) onSample(s Sample) {
	a.count++
	a.sum += s.value
	if s.value < a.min {
		a.min = s.value
	}
	if s.value > a.max {
		a.max = s.value
	}
}

type Bus struct {
	routes map[string]func(Sample)
}

func (b *Bus) subscribe(subject string, f func(Sample)) {
	b.routes[subject] = f
}

//go:noinline
func (b *Bus) publish(subject string, s Sample) {
	if f, ok := b.routes[subject]; ok {
		f(s)
	}
}

func readSeed() int64 {
	s := os.Getenv("HALEBENCH_SEED")
	if s == "" {
		return 0
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 || v >= 1<<31 {
		fmt.Fprintf(os.Stderr, "HALEBENCH_SEED must be an integer in [0, 2^31): %q\n", s)
		os.Exit(2)
	}
	return v
}

func main() {
	seed := readSeed()
	agg := &Aggregator{min: math.MaxInt64, max: math.MinInt64}
	bus := &Bus{routes: make(map[string]func(Sample))}
	bus.subscribe("bench.sample", agg.onSample)

	t0 := time.Now()
	for i := int64(0); i < iters; i++ {
		bus.publish("bench.sample", Sample{value: (31*(seed+i) + 7) % 1000})
	}
	elapsed := time.Since(t0).Nanoseconds()

	fmt.Printf("elapsed_ns=%d\n", elapsed)
	fmt.Printf("check=iters:%d,count:%d,sum:%d,min:%d,max:%d\n",
		iters, agg.count, agg.sum, agg.min, agg.max)
}
