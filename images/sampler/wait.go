//go:build linux

package main

import (
	"io"
	"sync"
	"time"
)

// readOutputs starts reading the bench's stdout (up to the job's cap) and
// the tail of its stderr.
func (r *sampleRun) readOutputs() {
	r.errTail = &tailBuffer{max: 4096, watch: r.o.watchValgrind}
	r.outDone, r.errDone = make(chan struct{}), make(chan struct{})
	r.benchDone, r.childless = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(r.outDone)
		r.out.read(r.outR, r.o.outCap, r.o.ready)
	}()
	go func() {
		defer close(r.errDone)
		buf := copyBuffers.Get().(*[]byte)
		defer copyBuffers.Put(buf)
		// Not io.Copy(…, r.errR): *os.File's WriteTo would make a buffer
		// each time.
		_, _ = io.CopyBuffer(r.errTail, struct{ io.Reader }{r.errR}, *buf)
	}()
}

// copyBuffers are the buffers the benches' stderr is read through.
var copyBuffers = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

func (r *sampleRun) startReaper() {
	if !r.reaping {
		r.reaping = true
		go reap(r.pid, &r.ws, &r.ru, r.benchDone, r.childless)
	}
}

// wait returns when the bench has exited and its stdout and stderr are
// closed, at the timeout, or when the sampler is told to stop.
func (r *sampleRun) wait(stop <-chan struct{}) {
	timer := time.NewTimer(r.o.timeout)
	defer timer.Stop()
	// The reaper, blocked in wait4, starts once the output is closed, as
	// a bench usually exits right then: with one CPU (GOMAXPROCS 1) a
	// goroutine parked in wait4 all along delays the readers' wake-ups.
	waiting := []<-chan struct{}{r.outDone, r.errDone, r.benchDone}
	for len(waiting) > 0 && !r.timedOut && !r.stopped {
		if len(waiting) == 1 && !r.reaping {
			phases.mark("bench-output-closed")
			r.startReaper()
		}
		select {
		case <-waiting[0]:
			waiting = waiting[1:]
		case <-timer.C:
			r.timedOut = true
		case <-stop:
			r.stopped = true
		}
	}
	r.startReaper()
	phases.mark("bench-reaped")
}
