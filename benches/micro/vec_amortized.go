// vec_amortized (Go sibling)
//
// Workload: n = 200,000. Timed region: make an empty slice (no capacity hint), append S+i for
// i in 0..n, then sum every element by index (bounds-checked). Freed later by the GC.
// Fairness: S = HALEBENCH_SEED (run time) so the sum cannot fold; append's growth policy is
// Go's own.
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

const n = 200000

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

	t0 := time.Now()
	v := make([]int64, 0)
	for i := int64(0); i < n; i++ {
		v = append(v, seed+i)
	}
	var sum int64
	for i := 0; i < len(v); i++ {
		sum += v[i]
	}
	elapsed := time.Since(t0).Nanoseconds()

	if len(v) != n {
		fmt.Fprintf(os.Stderr, "vector length %d, want %d\n", len(v), n)
		os.Exit(1)
	}
	fmt.Printf("elapsed_ns=%d\n", elapsed)
	fmt.Printf("check=n:%d,sum:%d\n", n, sum)
}
