//go:build linux

package main

import (
	"fmt"

	"github.com/hale-lang/halebench/images/sampler/wire"
)

// classify fills the sample from what the bench did and said: how it
// ended, then (if it ended well) its output.
func (r *sampleRun) classify(s wire.Sample) wire.Sample {
	s.Set(wire.MaxRSSKB, r.ru.Maxrss)
	if r.reaped {
		s.Set(wire.CPUNs, r.ru.Utime.Nano()+r.ru.Stime.Nano())
	}
	s.ExitCode = r.ws.ExitStatus()
	if r.ws.Signaled() {
		s.Signal = r.ws.Signal().String()
	}
	s.StderrTail = tail(r.errTail.String(), 2000)
	if r.peakKB != nil {
		s.Set(wire.MemPeakKB, *r.peakKB)
	}
	switch {
	case r.stopped:
		s.Status, s.Detail = wire.StatusRunFailed, "interrupted by a signal to the sampler"
		return s
	case r.timedOut:
		s.Status, s.Detail = wire.StatusTimeout, fmt.Sprintf("killed after %s", r.o.timeout)
		return s
	case r.oom:
		s.Status, s.Detail = wire.StatusOOM, fmt.Sprintf("killed by the memory limit of %d MiB", r.o.memLimit>>20)
		return s
	case r.ws.Signaled() || r.ws.ExitStatus() != 0:
		s.Status = wire.StatusRunFailed
		if r.ws.Signaled() {
			s.Detail = "killed by signal " + r.ws.Signal().String()
		} else {
			s.Detail = fmt.Sprintf("exit status %d", r.ws.ExitStatus())
		}
		return s
	}
	p := heldToWall(wire.ParseOutput(r.out.buf.Bytes(), r.out.dropped), s.Fig(wire.WallNs))
	s.Status, s.Detail, s.Check = p.Status, p.Detail, p.Check
	if p.ElapsedNs > 0 {
		s.Set(wire.ElapsedNs, p.ElapsedNs)
	}
	return s
}

// heldToWall refuses an elapsed_ns longer than the sample's own wall time
// (the sampler's clock, from start to the last holder of its output): the
// timed region lies inside the process, so a longer one was made up.
func heldToWall(p wire.Output, wallNs int64) wire.Output {
	if p.Status == wire.StatusOK && wallNs > 0 && p.ElapsedNs > wallNs {
		return wire.Output{Status: wire.StatusBadOutput, Detail: fmt.Sprintf("elapsed_ns=%d is longer than the sample's wall time of %d ns", p.ElapsedNs, wallNs)}
	}
	return p
}
