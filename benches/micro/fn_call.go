// fn_call (Go sibling)
// Shape: 10,000,000 calls of step(x) = x*2 + 1 with x = i + S (S = HALEBENCH_SEED), acc = the
// result of each call; only the call loop is timed (time.Now / time.Since, monotonic).
// Fairness: step is //go:noinline, so every iteration is a real call (the Go compiler does
// not drop calls as pure). Arguments come from S so nothing folds to a constant.

//go:build ignore

package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

const iters = 10_000_000

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

//go:noinline
func step(x int64) int64 {
	return x*2 + 1
}

func main() {
	s := seedFromEnv()
	var acc int64

	t0 := time.Now()
	for i := int64(0); i < iters; i++ {
		acc = step(i + s)
	}
	elapsed := time.Since(t0).Nanoseconds()

	fmt.Printf("elapsed_ns=%d\n", elapsed)
	fmt.Printf("check=iters:%d,acc:%d\n", iters, acc)
}
