// fn_scratch_work (Go sibling)
//
// Workload: 100 calls (c = 0..99) of a //go:noinline f(c, S) that builds a local slice of 1,000
// ints (j + S for j in 0..1000, appended to an empty slice, no capacity hint), sums it by index
// and returns the sum; the caller adds it to total. All 100 calls are timed.
// Fairness: S = HALEBENCH_SEED (run time) so nothing folds; //go:noinline keeps each call a
// real call. append's growth allocates the slice's backing arrays (heap; recent Go versions
// may put the first small one on the stack), freed by the GC later.
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

const (
	calls = 100
	items = 1000
)

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

//go:noinline
func scratchWork(c int, seed int64) int64 {
	_ = c // the call index, as in the Hale version; the body does not depend on it
	v := make([]int64, 0)
	for j := int64(0); j < items; j++ {
		v = append(v, j+seed)
	}
	var sum int64
	for j := 0; j < len(v); j++ {
		sum += v[j]
	}
	return sum
}

func main() {
	seed := readSeed()

	t0 := time.Now()
	var total int64
	for c := 0; c < calls; c++ {
		total += scratchWork(c, seed)
	}
	elapsed := time.Since(t0).Nanoseconds()

	fmt.Printf("elapsed_ns=%d\n", elapsed)
	fmt.Printf("check=calls:%d,total:%d\n", calls, total)
}
