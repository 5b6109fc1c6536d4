//go:build linux

package main

import (
	"os"
	"strconv"
	"time"
)

// Where a sample's time goes, for whoever works on the sampler's cost:
// `serve -phases` writes, after each sample, one line on stderr with the
// time each step took, in µs, in order (docs/measurements.md). Off by
// default, when phases is nil and a mark is a nil check; the orchestrator
// never asks for it.
var phases *phaseClock

// phaseLinePrefix starts each line -phases writes.
const phaseLinePrefix = "halebench-sampler phases:"

// phaseClock times one sample at a time: begin, a mark after each step,
// end. The sampler takes one sample at a time; the marks are made on the
// goroutine that runs it.
type phaseClock struct {
	on          bool
	first, last time.Time
	line        []byte
}

func (p *phaseClock) begin() {
	if p == nil {
		return
	}
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

func (p *phaseClock) end() {
	if p == nil || !p.on {
		return
	}
	p.note("sample", p.last.Sub(p.first))
	p.on = false
	os.Stderr.Write(append(p.line, '\n'))
}
