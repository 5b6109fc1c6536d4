// form_hashmap_get (Go sibling)
// Shape: a map[int64]Entry filled outside the timer with 150,000 entries, key id = S + i,
// value Entry{ID: S + i, V: i + 1} (S = HALEBENCH_SEED), as in form_hashmap_set; timed:
// 150,000 lookups of key S + i, summing V of each hit.
// Fairness: the built-in map (comma-ok lookup, so a miss would not count). Values come from S.

//go:build ignore

package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

const n = 150_000

type Entry struct {
	ID int64
	V  int64
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
	m := make(map[int64]Entry)
	for i := int64(0); i < n; i++ {
		id := s + i
		m[id] = Entry{ID: id, V: i + 1}
	}

	var acc int64
	t0 := time.Now()
	for i := int64(0); i < n; i++ {
		if e, ok := m[s+i]; ok {
			acc += e.V
		}
	}
	elapsed := time.Since(t0).Nanoseconds()

	fmt.Printf("elapsed_ns=%d\n", elapsed)
	fmt.Printf("check=n:%d,acc:%d\n", n, acc)
}
