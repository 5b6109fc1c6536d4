// locus_instantiation (Go sibling)
// Shape: 100,000 times: allocate a one-field object {v = S + i} (S = HALEBENCH_SEED) on the
// heap, read v through a //go:noinline method, sink ^= v, drop it. Only the loop is timed.
// Fairness: each object is stored to a package-level pointer before the read, so escape
// analysis cannot keep it on the stack: every iteration is a real GC heap allocation (an
// 8-byte pointer-free object, served by Go's tiny allocator). Values come from S.

//go:build ignore

package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

const iters = 100_000

type Obj struct {
	v int64
}

//go:noinline
func (o *Obj) Get() int64 {
	return o.v
}

var escaped *Obj

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
	var sink int64

	t0 := time.Now()
	for i := int64(0); i < iters; i++ {
		o := &Obj{v: s + i}
		escaped = o
		sink ^= o.Get()
	}
	elapsed := time.Since(t0).Nanoseconds()
	escaped = nil

	fmt.Printf("elapsed_ns=%d\n", elapsed)
	fmt.Printf("check=iters:%d,sink:%d\n", iters, sink)
}
