// loop_overhead (Go sibling)
// Shape: acc starts at the run-time seed S (HALEBENCH_SEED); 100,000,000 iterations of
// acc ^= i for i = 0..N-1 on int64. Only the loop is timed (time.Now / time.Since, monotonic).
// Fairness: acc comes from S so nothing folds to a constant. The Go compiler does not
// vectorise, so this is a scalar loop while the LLVM siblings (C, Rust) run SIMD.

//go:build ignore

package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

const iters = 100_000_000

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
	acc := seedFromEnv()

	t0 := time.Now()
	for i := int64(0); i < iters; i++ {
		acc ^= i
	}
	elapsed := time.Since(t0).Nanoseconds()

	fmt.Printf("elapsed_ns=%d\n", elapsed)
	fmt.Printf("check=iters:%d,acc:%d\n", iters, acc)
}
