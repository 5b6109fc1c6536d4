// fn_modular (Go sibling)
// Shape: 10,000,000 calls of outer(x) = inner(x) * 3 with inner(x) = x + 1, x = i + S
// (S = HALEBENCH_SEED), acc = the result of each call; only the call loop is timed.
// Fairness: outer and inner are both //go:noinline, so every iteration makes two real calls.
// Arguments come from S so nothing folds to a constant.

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
func inner(x int64) int64 {
	return x + 1
}

//go:noinline
func outer(x int64) int64 {
	return inner(x) * 3
}

func main() {
	s := seedFromEnv()
	var acc int64

	t0 := time.Now()
	for i := int64(0); i < iters; i++ {
		acc = outer(i + s)
	}
	elapsed := time.Since(t0).Nanoseconds()

	fmt.Printf("elapsed_ns=%d\n", elapsed)
	fmt.Printf("check=iters:%d,acc:%d\n", iters, acc)
}
