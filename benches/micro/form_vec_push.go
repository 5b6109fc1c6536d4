// form_vec_push (Go sibling)
// Shape: an empty []int64 (no capacity) made before t0; timed: 500,000 appends of S + i
// (S = HALEBENCH_SEED).
// Fairness: Go's append growth policy (doubling, then ~1.25x for large slices); values come
// from S so nothing folds to a constant.

//go:build ignore

package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

const iters = 500_000

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
	v := make([]int64, 0)

	t0 := time.Now()
	for i := int64(0); i < iters; i++ {
		v = append(v, s+i)
	}
	elapsed := time.Since(t0).Nanoseconds()

	fmt.Printf("elapsed_ns=%d\n", elapsed)
	fmt.Printf("check=iters:%d,len:%d\n", iters, len(v))
}
