//go:build linux

package main

import (
	"syscall"
	"testing"

	"github.com/hale-lang/halebench/images/sampler/wire"
)

// classify names every figure it measured: the bench's elapsed time from
// its output, maxrss and CPU time (user + system) from its rusage, the
// cgroup peak where there was one; a bench the sampler could not reap has
// no CPU time (its rusage is not ours to read), and no peak without one.
func TestClassifyNamesItsFigures(t *testing.T) {
	peak := int64(4096)
	r := &sampleRun{errTail: &tailBuffer{}, reaped: true, peakKB: &peak,
		ru: syscall.Rusage{Maxrss: 2048, Utime: syscall.Timeval{Sec: 1, Usec: 500}, Stime: syscall.Timeval{Usec: 250}}}
	r.out.buf.WriteString("elapsed_ns=900\n")
	s := r.classify(wire.Sample{Figures: wire.Figures{wire.WallNs: 1000}})
	want := wire.Figures{wire.ElapsedNs: 900, wire.WallNs: 1000, wire.MaxRSSKB: 2048, wire.MemPeakKB: 4096, wire.CPUNs: 1_000_750_000}
	if s.Status != wire.StatusOK || len(s.Figures) != len(want) {
		t.Fatalf("figures %v, status %s (%s)", s.Figures, s.Status, s.Detail)
	}
	for name, v := range want {
		if got, ok := s.Figures.Get(name); !ok || got != v {
			t.Errorf("%s = %d (%v), want %d", name, got, ok, v)
		}
	}
	r2 := &sampleRun{errTail: &tailBuffer{}, ru: syscall.Rusage{Maxrss: 1}}
	r2.out.buf.WriteString("elapsed_ns=5\n")
	s2 := r2.classify(wire.Sample{})
	if _, ok := s2.Figures.Get(wire.CPUNs); ok {
		t.Errorf("an unreaped bench has a cpu time: %v", s2.Figures)
	}
	if _, ok := s2.Figures.Get(wire.MemPeakKB); ok {
		t.Errorf("no cgroup, yet a peak: %v", s2.Figures)
	}
}
