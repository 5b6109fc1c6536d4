// tree_fanout (Go sibling)
//
// Workload: a coordinator with K = 20 worker children (heap, created by the parent and held in
// its slice). For each child the parent's accept calls the child's //go:noinline compute(),
// which sums (j + S) for j in 0..M, M = 2,000, and adds the result to the parent's total.
// Timed: building the tree and the 20 compute/accept steps (the GC frees the tree later).
// Note: C and Rust fold compute()'s loop to a closed form, so this bench's ratio against them is
// not comparable; Go's compiler keeps the loop. S = HALEBENCH_SEED (run time) so nothing folds
// to a constant.
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

const (
	k = 20
	m = 2000
)

type Worker struct {
	base int64
	m    int64
}

//go:noinline
func (w *Worker) compute() int64 {
	var acc int64
	for j := int64(0); j < w.m; j++ {
		acc += j + w.base
	}
	return acc
}

type Coord struct {
	total    int64
	children []*Worker
}

func (c *Coord) accept(w *Worker) {
	c.total += w.compute()
}

var current *Coord

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
	current = &Coord{children: make([]*Worker, 0, k)}
	for i := 0; i < k; i++ {
		current.children = append(current.children, &Worker{base: seed, m: m})
	}
	for _, w := range current.children {
		current.accept(w)
	}
	total := current.total
	current = nil
	elapsed := time.Since(t0).Nanoseconds()

	fmt.Printf("elapsed_ns=%d\n", elapsed)
	fmt.Printf("check=k:%d,m:%d,total:%d\n", k, m, total)
}
