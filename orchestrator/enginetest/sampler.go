package enginetest

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"path"
	"slices"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/engine"
)

// SampleFunc answers one job in a sampler container made from s: the
// fake's stand-in for running the bench. ID and Nonce are filled in after.
type SampleFunc func(s engine.Spec, j wire.Job) wire.Result

// Job is one job a fake sampler was sent, as it read it off the wire, and
// the container that took it.
type Job struct {
	Container string
	Spec      engine.Spec
	Wire      wire.Job
}

// isSampler says whether cmd is the sampler's `serve` (runner.StartServer).
func isSampler(cmd []string) bool { return slices.Contains(cmd, "serve") }

// serve is the fake sampler: what the real one does on its channel, with
// the benches left out. It reads one wire.Job a line from stdin, records
// it, says the ready line a job asks for, and answers with the result line
// Sampler (or Steady) gives, carrying the job's id and nonce, until stdin
// ends. A line that is not a job ends it with an error, as the real
// sampler's channel would.
func (f *Engine) serve(id string, s engine.Spec, stdin io.Reader, stdout io.Writer) error {
	sc := bufio.NewScanner(stdin)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var j wire.Job
		if err := json.Unmarshal(sc.Bytes(), &j); err != nil {
			return fmt.Errorf("fake sampler: not a job: %w", err)
		}
		f.mu.Lock()
		f.Jobs = append(f.Jobs, Job{Container: id, Spec: s, Wire: j})
		answer := f.Sampler
		f.mu.Unlock()
		if answer == nil {
			answer = Steady
		}
		if j.Ready {
			if _, err := stdout.Write(wire.EncodeReady(j.ID, j.Nonce)); err != nil {
				return err
			}
		}
		res := answer(s, j)
		res.ID, res.Nonce = j.ID, j.Nonce
		if _, err := stdout.Write(wire.EncodeResult(res)); err != nil {
			return err
		}
	}
	return sc.Err()
}

// Steady answers every job with its warm-ups and samples all ok: 1 ms
// each, a check naming the bench (siblings agree), 1000 KiB of maxrss and
// a 2048 KiB memory peak (every other declared figure: fakeFigures), on
// the container's cpuset; and a count job with its runs counted alike
// (steadyCounts).
func Steady(s engine.Spec, j wire.Job) wire.Result {
	res := wire.Result{
		Status:  wire.StatusOK,
		Env:     wire.Env{Affinity: s.CPUs, CgroupVersion: "v1", MemPeakSource: "per-sample cgroup (fake)", CPUModel: "Fake CPU", Kernel: "fake"},
		Samples: []wire.Sample{},
	}
	for i := 0; i < j.Warmup+j.Iters; i++ {
		res.Samples = append(res.Samples, wire.Sample{Warmup: i < j.Warmup, Status: wire.StatusOK,
			Check: "fake:" + path.Base(j.BuildFailed), Figures: fakeFigures()})
	}
	if j.Count != nil {
		res.Env.Valgrind = "valgrind-fake"
		res.Counts = steadyCounts(*j.Count)
	}
	return res
}

// steadyCounts are a count job's runs, all ok and alike (counts are
// deterministic): 1,000,000 instructions in the job's scope, at 1 ms, by
// the instrument the job asks for; a region run, unless the job leaves the
// witness out, carries the whole process's 1,500,000.
func steadyCounts(c wire.CountJob) []wire.Count {
	scope, instrument := wire.ScopeProcess, wire.InstrumentCallgrindCacheSim
	if c.Region {
		scope = wire.ScopeRegion
	}
	if c.NoCacheSim {
		instrument = wire.InstrumentCallgrind
	}
	counts := []wire.Count{}
	for i := 0; i < c.Runs; i++ {
		n := wire.Count{Status: wire.CountOK, Scope: scope, Ir: 1_000_000, WallNs: 1_000_000, Instrument: instrument}
		n.EstCycles = n.EstimatedCycles()
		if c.Region && !c.NoWitness {
			n.Figures = wire.Figures{wire.InstructionsProcess: 1_500_000}
		}
		counts = append(counts, n)
	}
	return counts
}

// fakeFigures is a steady sample's figures: every figure the wire declares,
// so a figure declared later reaches the fake's reports too (one in ns at
// 0.9 ms, inside the sample's wall time; one in KiB at 1000).
func fakeFigures() wire.Figures {
	f := wire.Figures{wire.ElapsedNs: 1_000_000, wire.WallNs: 1_001_000, wire.MaxRSSKB: 1000, wire.MemPeakKB: 2048}
	for _, d := range wire.Declared {
		if _, set := f[d.Name]; set {
			continue
		}
		f[d.Name] = 1000
		if d.Unit == "ns" {
			f[d.Name] = 900_000
		}
	}
	return f
}
