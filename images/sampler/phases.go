//go:build linux

package main

import (
	"os"
	"strconv"
	"syscall"
	"time"
)

// Where a sample's time goes, for whoever works on the sampler's cost:
// `serve -phases` writes, after each sample, one line on stderr with the
// time each step took, in µs, in order, then the bench's and the sampler's
// CPU time (µs) and the sampler's context switches; and after each job its
// time in the sampler (docs/measurements.md). Off by default, when phases
// is nil and a mark is a nil check; the orchestrator never asks for it.
var phases *phaseClock

// phaseLinePrefix starts each line -phases writes for a sample, and
// phaseJobPrefix starts its line for a whole job.
const (
	phaseLinePrefix = "halebench-sampler phases:"
	phaseJobPrefix  = "halebench-sampler job:"
)

// phaseClock times one sample at a time: begin, a mark after each step,
// end. The sampler takes one sample at a time; the marks are made on the
// goroutine that runs it.
type phaseClock struct {
	on          bool
	first, last time.Time
	cpu         time.Duration // the sampler's CPU time at begin
	switches    int64         // and its context switches
	line        []byte
}

// selfCPU is the CPU time the sampler's threads have used (the kernel's
// precise total, not its tick-sampled split between user and system), and
// how many times they gave up or lost a CPU.
func selfCPU() (time.Duration, int64) {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), ru.Nvcsw + ru.Nivcsw
}

func (p *phaseClock) begin() {
	if p == nil {
		return
	}
	p.cpu, p.switches = selfCPU()
	p.on, p.first = true, time.Now()
	p.last = p.first
	p.line = append(p.line[:0], phaseLinePrefix...)
}

// mark ends the step called name.
func (p *phaseClock) mark(name string) {
	if p == nil || !p.on {
		return
	}
	now := time.Now()
	p.note(name, now.Sub(p.last))
	p.last = now
}

// note adds a figure that is not a step (the bench's own CPU time).
func (p *phaseClock) note(name string, d time.Duration) {
	if p == nil || !p.on {
		return
	}
	p.line = append(p.line, ' ')
	p.line = append(p.line, name...)
	p.line = append(p.line, '=')
	p.line = strconv.AppendInt(p.line, d.Microseconds(), 10)
}

// job writes what the n-th job took in the sampler, from its line read to
// its result encoded (before the result is written: a reader that has the
// result finds the job's lines on stderr, or soon will).
func (p *phaseClock) job(n int, d time.Duration) {
	if p == nil {
		return
	}
	line := strconv.AppendInt([]byte(phaseJobPrefix+" n="), int64(n), 10)
	line = strconv.AppendInt(append(line, " job="...), d.Microseconds(), 10)
	os.Stderr.Write(append(line, '\n'))
}

func (p *phaseClock) end() {
	if p == nil || !p.on {
		return
	}
	p.note("sample", p.last.Sub(p.first))
	cpu, switches := selfCPU()
	p.note("sampler-cpu", cpu-p.cpu)
	p.line = append(p.line, " sampler-switches="...)
	p.line = strconv.AppendInt(p.line, switches-p.switches, 10)
	p.on = false
	os.Stderr.Write(append(p.line, '\n'))
}
