// bus_dispatch_heap_payload (Go sibling)
// Shape: one subscriber registered on subject "bench.beat.heap" before t0, and the label
// "tick" built on the heap at run time before t0; timed: 50,000 publishes of
// Beat{N: S + i, Label: label} (S = HALEBENCH_SEED). Each publish looks the subject up by its
// string key in a map[string]func(Beat), makes the subscriber's own copy of the payload
// (strings.Clone of the label: one heap allocation + copy) and calls the subscriber through
// the func value; the subscriber counts.
// Fairness: map lookup on every publish, indirect closure call, one label allocation per
// publish as in the C (malloc) and Rust (String clone) siblings; Go's GC reclaims the copies.

//go:build ignore

package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

const iters = 50_000

type Beat struct {
	N     int64
	Label string
}

type Bus struct {
	subjects map[string]func(Beat)
}

func NewBus() *Bus {
	return &Bus{subjects: make(map[string]func(Beat))}
}

func (b *Bus) Subscribe(subject string, h func(Beat)) {
	b.subjects[subject] = h
}

// Publish delivers a deep copy: the subscriber gets its own label bytes.
func (b *Bus) Publish(subject string, msg *Beat) {
	if h, ok := b.subjects[subject]; ok {
		h(Beat{N: msg.N, Label: strings.Clone(msg.Label)})
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
	bus.Subscribe("bench.beat.heap", func(msg Beat) {
		count++
	})
	label := string([]byte{'t', 'i', 'c', 'k'})

	t0 := time.Now()
	for i := int64(0); i < iters; i++ {
		msg := Beat{N: s + i, Label: label}
		bus.Publish("bench.beat.heap", &msg)
	}
	elapsed := time.Since(t0).Nanoseconds()

	fmt.Printf("elapsed_ns=%d\n", elapsed)
	fmt.Printf("check=iters:%d,count:%d\n", iters, count)
}
