// pipeline_3stage (Go sibling)
//
// Workload: one thread, three stages linked by two subjects, each a FIFO queue with one
// subscriber: Source publishes N = 50,000 Event{value: S+i} on the "event" queue; Filter, the
// "event" subscriber, keeps even values and publishes Filtered{value} on the "filtered" queue;
// Sink, the "filtered" subscriber, counts and sums. Delivery is a scheduler loop that, while
// either queue is non-empty, hands one message from each non-empty queue to its subscriber
// through a func value. Source publishes all N before the scheduler runs. Timed: from the first
// publish until both queues are drained.
// Fairness: S = HALEBENCH_SEED (run time) so counts and sums cannot fold. Queues are growable
// power-of-two rings of payload structs (copied in and out), like the C sibling's.
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

const n = 50000

type Event struct{ value int64 }

type Filtered struct{ value int64 }

// fifo is a growable power-of-two ring.
type fifo[T any] struct {
	buf  []T
	head int
	len  int
}

func (q *fifo[T]) push(x T) {
	if q.len == len(q.buf) {
		c := 16
		if len(q.buf) > 0 {
			c = 2 * len(q.buf)
		}
		nb := make([]T, c)
		for i := 0; i < q.len; i++ {
			nb[i] = q.buf[(q.head+i)&(len(q.buf)-1)]
		}
		q.buf = nb
		q.head = 0
	}
	q.buf[(q.head+q.len)&(len(q.buf)-1)] = x
	q.len++
}

func (q *fifo[T]) pop() T {
	x := q.buf[q.head]
	q.head = (q.head + 1) & (len(q.buf) - 1)
	q.len--
	return x
}

type subject[T any] struct {
	q       fifo[T]
	deliver func(T)
}

type pipeline struct {
	events       subject[Event]
	filtered     subject[Filtered]
	filterPassed int64
	sinkCount    int64
	sinkSum      int64
}

func newPipeline() *pipeline {
	p := &pipeline{}
	p.events.deliver = func(e Event) {
		if e.value%2 == 0 {
			p.filterPassed++
			p.filtered.q.push(Filtered{value: e.value})
		}
	}
	p.filtered.deliver = func(f Filtered) {
		p.sinkCount++
		p.sinkSum += f.value
	}
	return p
}

func (p *pipeline) runUntilDrained() {
	for {
		delivered := false
		if p.events.q.len > 0 {
			p.events.deliver(p.events.q.pop())
			delivered = true
		}
		if p.filtered.q.len > 0 {
			p.filtered.deliver(p.filtered.q.pop())
			delivered = true
		}
		if !delivered {
			return
		}
	}
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
	p := newPipeline()

	t0 := time.Now()
	for i := int64(0); i < n; i++ {
		p.events.q.push(Event{value: seed + i})
	}
	p.runUntilDrained()
	elapsed := time.Since(t0).Nanoseconds()

	fmt.Printf("elapsed_ns=%d\n", elapsed)
	fmt.Printf("check=n:%d,filter_passed:%d,sink_count:%d,sink_sum:%d\n",
		n, p.filterPassed, p.sinkCount, p.sinkSum)
}
