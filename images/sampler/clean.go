//go:build linux

package main

import (
	"syscall"
	"time"
)

// clean kills and reaps whatever the bench left, waits for its output to
// close, reads the cgroup's peak and removes the cgroup. It says whether
// any of that failed: then the container is spent.
func (r *sampleRun) clean(conf *confinement) (spent bool) {
	// Nothing the bench started outlives its sample.
	r.reaped = killAll(r.pid, r.sc, conf, r.childless)
	if !r.reaped {
		spent = true
	}
	for _, c := range []chan struct{}{r.outDone, r.errDone} {
		select {
		case <-c:
		case <-time.After(time.Second):
			// A descriptor kept open where no process of ours holds it.
			spent = true
		}
	}
	closeAll(r.outR, r.errR)
	phases.mark("kill-sweep")
	if !r.reaped {
		// The reaper still runs; what it has is not ours to read.
		r.ws, r.ru = syscall.WaitStatus(syscall.SIGKILL), syscall.Rusage{}
	}
	phases.note("bench-cpu", time.Duration(r.ru.Utime.Nano()+r.ru.Stime.Nano()))
	if r.sc != nil {
		if kb, err := r.sc.peakKB(); err == nil {
			r.peakKB = &kb
		}
		r.oom = r.sc.oomKilled()
		phases.mark("peak-read")
		if err := r.sc.remove(); err != nil {
			spent = true
		}
		phases.mark("cgroup-remove")
	}
	return spent
}
