//go:build linux

package main

import (
	"os"
	"syscall"
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
)

// sampleRun is one sample in flight: the bench process, its output being
// read, and its cgroup.
type sampleRun struct {
	o          options
	pid        int
	sc         sampleCgroup
	outR, errR *os.File
	start      time.Time

	out                  capture
	errTail              *tailBuffer
	outDone, errDone     chan struct{}
	benchDone, childless chan struct{}
	reaping              bool
	ws                   syscall.WaitStatus
	ru                   syscall.Rusage

	timedOut, stopped bool
	reaped            bool
	peakKB            *int64
	oom               bool
}

// runOnce takes one sample: start the bench (start.go), wait until it has
// exited and every holder of its stdout and stderr has closed them, or the
// timeout (wait.go), kill and reap every process it left and remove its
// cgroup (clean.go), then read what it said (classify.go). spent says the
// clean-up could not be done: the container must not serve another sample.
func runOnce(o options, prog program, cg cgroups, conf *confinement, stop <-chan struct{}) (s wire.Sample, spent bool) {
	r, s, spent := startSample(o, prog, cg, conf)
	if r == nil {
		return s, spent
	}
	r.wait(stop)
	s.Set(wire.WallNs, time.Since(r.start).Nanoseconds())
	spent = r.clean(conf)
	return r.classify(s), spent
}

func failed(status, detail string) wire.Sample { return wire.Sample{Status: status, Detail: detail} }
