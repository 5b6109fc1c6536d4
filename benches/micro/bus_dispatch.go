// bus_dispatch (Go sibling)
// Shape: one subscriber registered on subject "bench.tick" before t0; timed: 100,000
// publishes of Tick{N: S + i} (S = HALEBENCH_SEED). Each publish looks the subject up by its
// string key in a map[string]func(Tick), then calls the subscriber through the func value;
// the subscriber (a closure) counts messages.
// Fairness: the map lookup (string hash + compare) runs on every publish and the handler is
// an indirect closure call the compiler cannot devirtualise. Values come from S.

//go:build ignore

package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

const iters = 100_000

type Tick struct {
	N int64
}

type Bus struct {
	subjects map[string]func(Tick)
}

func NewBus() *Bus {
	return &Bus{subjects: make(map[string]func(Tick))}
}

func (b *Bus) Subscribe(subject string, h func(Tick)) {
	b.subjects[subject] = h
}

func (b *Bus) Publish(subject string, msg Tick) {
	if h, ok := b.subjects[subject]; ok {
		h(msg)
	}
}

func seedFromEnv() int64 {
	s := os.Getenv("HALEBENCH_SEED")
	if s == "" {
		return 0
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 || v >= 1<<31 {
		fmt.Fprintf(os.Stderr, "invalid HALEBENCH_SEED: %s\n", s)
		os.Exit(2)
	}
	return v
}

func main() {
	s := seedFromEnv()

	bus := NewBus()
	var count int64
	bus.Subscribe("bench.tick", func(msg Tick) {
		count++
	})

	t0 := time.Now()
	for i := int64(0); i < iters; i++ {
		bus.Publish("bench.tick", Tick{N: s + i})
	}
	elapsed := time.Since(t0).Nanoseconds()

	fmt.Printf("elapsed_ns=%d\n", elapsed)
	fmt.Printf("check=iters:%d,count:%d\n", iters, count)
}
