// coord_with_churn (Go sibling)
//
// Workload: a parent Coord creates and dissolves K = 2,000 children one after another: each
// child is a heap *Worker{id: S+i}, handed to the parent (accept), read by a //go:noinline hook
// that adds its id to the parent's sink, then released (the parent drops its pointer) before the
// next child is made. Timed: the whole parent lifetime, from its allocation until it is dropped.
// Fairness: S = HALEBENCH_SEED (run time) so the sink cannot fold. The parent is reachable from
// a package variable while alive, so escape analysis cannot keep it or its children on the
// stack: every Worker is a real heap allocation, reclaimed by the GC (not timed, as in the
// other GC'd siblings).
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

const k = 2000

type Worker struct {
	id int64
}

type Coord struct {
	sink int64
	live *Worker
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

//go:noinline
func onAccept(c *Coord, w *Worker) {
	c.sink += w.id
}

func (c *Coord) accept(w *Worker) {
	c.live = w
	onAccept(c, w)
}

func (c *Coord) release() {
	c.live = nil
}

func main() {
	seed := readSeed()

	t0 := time.Now()
	current = &Coord{}
	for i := int64(0); i < k; i++ {
		w := &Worker{id: seed + i}
		current.accept(w)
		current.release()
	}
	sink := current.sink
	current = nil
	elapsed := time.Since(t0).Nanoseconds()

	fmt.Printf("elapsed_ns=%d\n", elapsed)
	fmt.Printf("check=k:%d,sink:%d\n", k, sink)
}
