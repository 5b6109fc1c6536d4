// form_hashmap_false_sharing (Go sibling)
//
// Workload: one shared map[int64]int64 guarded by one sync.Mutex; two writer goroutines, each
// pinned to its own OS thread with runtime.LockOSThread, insert concurrently, writer A ids 2i
// and writer B ids 2i+1, value i, for i in 0..100,000 (one Lock/Unlock per insert). The map
// starts empty (no size hint) and grows under the lock. Both writers are running and parked on
// a start channel before t0; the channel is closed right after t0. Timed: until both writers
// are done (WaitGroup). total = len(map) (200,000).
// Fairness: the keys are fixed by the workload (2i, 2i+1); the result is the map's real length.
// sync.Mutex spins briefly before parking: that is Go's own mutex, kept.
package main

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"time"
)

const perWriter = 100000

type sharedMap struct {
	mu sync.Mutex
	m  map[int64]int64
}

func init() {
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
	_ = readSeed() // validated for uniformity; this workload's keys are fixed (2i, 2i+1)
	sm := &sharedMap{m: make(map[int64]int64)}
	var ready, done sync.WaitGroup
	start := make(chan struct{})

	for parity := int64(0); parity < 2; parity++ {
		ready.Add(1)
		done.Add(1)
		go func(parity int64) {
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			defer done.Done()
			ready.Done()
			<-start
			for i := int64(0); i < perWriter; i++ {
				sm.mu.Lock()
				sm.m[2*i+parity] = i
				sm.mu.Unlock()
			}
		}(parity)
	}
	ready.Wait()

	t0 := time.Now()
	close(start)
	done.Wait()
	elapsed := time.Since(t0).Nanoseconds()

	fmt.Printf("elapsed_ns=%d\n", elapsed)
	fmt.Printf("check=per_writer:%d,total:%d\n", perWriter, len(sm.m))
}
