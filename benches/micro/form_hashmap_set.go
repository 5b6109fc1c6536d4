// form_hashmap_set (Go sibling)
// Shape: an empty map[int64]Entry (no size hint) made before t0; timed: 1,000,000 inserts with
// key id = S + i and value Entry{ID: S + i, V: i + 1} (S = HALEBENCH_SEED).
// Fairness: the built-in map with its own hashing and growth policy; values are stored
// inline (no pointer per entry). Values come from S.

//go:build ignore

package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

const n = 1_000_000

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

	t0 := time.Now()
	for i := int64(0); i < n; i++ {
		id := s + i
		m[id] = Entry{ID: id, V: i + 1}
	}
	elapsed := time.Since(t0).Nanoseconds()

	fmt.Printf("elapsed_ns=%d\n", elapsed)
	fmt.Printf("check=n:%d,len:%d\n", n, len(m))
}
