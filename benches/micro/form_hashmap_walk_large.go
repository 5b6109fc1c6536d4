// form_hashmap_walk_large (Go sibling)
//
// Workload: a map[int64]Entry filled outside the timer with 100,000 entries
// Entry{id: S+i, val: 3i} keyed by id. Timed: one full range over the map summing
// val + (id - id).
// Fairness: ids come from S = HALEBENCH_SEED (run time). Go's compiler folds (id - id) to zero,
// as C and Rust do. Range over a Go map starts at a random slot; the order does not change the
// sum.
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

const n = 100000

type Entry struct {
	id  int64
	val int64
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
	m := make(map[int64]Entry)
	for i := int64(0); i < n; i++ {
		m[seed+i] = Entry{id: seed + i, val: 3 * i}
	}

	t0 := time.Now()
	var sum int64
	for _, e := range m {
		sum += e.val + (e.id - e.id)
	}
	elapsed := time.Since(t0).Nanoseconds()

	fmt.Printf("elapsed_ns=%d\n", elapsed)
	fmt.Printf("check=n:%d,len:%d,sum:%d\n", n, len(m), sum)
}
