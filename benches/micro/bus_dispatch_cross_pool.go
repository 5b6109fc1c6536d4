// bus_dispatch_cross_pool (Go sibling)
//
// Workload: 100,000 Tick{n: S+i} sent from the main goroutine to a consumer goroutine through a
// buffered channel of capacity 64. Both goroutines are pinned to their own OS thread with
// runtime.LockOSThread (the closest analogue of a pool owning a thread). The consumer counts and
// sums n. The consumer is running and has signalled ready before t0. Timed: from the first send
// until the main goroutine learns (done channel) that the consumer received all 100,000 (the
// drain is timed, not only the send loop).
// Fairness: S = HALEBENCH_SEED (run time). Ticks move by value; send blocks when the channel is
// full and receive when it is empty, like the C ring and Rust's sync_channel. Go may park and
// wake goroutines through its scheduler rather than the kernel: that is its own cost/benefit.
package main

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"time"
)

const (
	iters   = 100000
	ringCap = 64
)

type Tick struct{ n int64 }

func init() {
	// Keep the main goroutine on the main OS thread for the whole run.
	runtime.LockOSThread()
}

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
	ch := make(chan Tick, ringCap)
	ready := make(chan struct{})
	done := make(chan struct{})
	var count, sum int64

	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		close(ready)
		var c, s int64
		for i := 0; i < iters; i++ {
			t := <-ch
			c++
			s += t.n
		}
		count, sum = c, s
		close(done)
	}()
	<-ready

	t0 := time.Now()
	for i := int64(0); i < iters; i++ {
		ch <- Tick{n: seed + i}
	}
	<-done
	elapsed := time.Since(t0).Nanoseconds()

	fmt.Printf("elapsed_ns=%d\n", elapsed)
	fmt.Printf("check=iters:%d,count:%d,sum:%d\n", iters, count, sum)
}
