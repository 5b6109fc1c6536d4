// form_vec_get (Go sibling)
// Shape: a []int64 filled with v[i] = S + i for i < 200,000 (S = HALEBENCH_SEED) outside the
// timer; timed: acc ^= v[i] for every index 0..len(v)-1 with ordinary bounds-checked
// indexing.
// Fairness: Go's compiler proves the check redundant for this loop shape and removes it (as
// C and Rust do); it does not vectorise the XOR fold, unlike the LLVM siblings.

//go:build ignore

package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

const n = 200_000

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
	for i := int64(0); i < n; i++ {
		v = append(v, s+i)
	}

	var acc int64
	t0 := time.Now()
	for i := 0; i < len(v); i++ {
		acc ^= v[i]
	}
	elapsed := time.Since(t0).Nanoseconds()

	fmt.Printf("elapsed_ns=%d\n", elapsed)
	fmt.Printf("check=iters:%d,acc:%d\n", len(v), acc)
}
