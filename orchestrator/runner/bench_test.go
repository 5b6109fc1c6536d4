package runner_test

import (
	"context"
	"fmt"
	"github.com/hale-lang/halebench/images/sampler/wire"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/stats"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// BenchmarkSampleOverhead measures what a sample costs beyond the bench's
// own timed region, with a bench whose timed work is ~0.1 ms, taken the way
// `halebench run` takes it: jobs of 5 samples + 1 warm-up sent to one
// long-lived sampler container.
//
//	in-container-ms/sample: the sample's wall time in the sampler, from
//	  the fork to the bench reaped (fork+exec, the program's start-up and
//	  exit, the moves in and out of its cgroups), minus the elapsed_ns the
//	  bench printed; making and removing the cgroup, reading the peak and
//	  the room's check are outside it (the phases below time them);
//	orchestration-ms/sample: each job's round trip from the orchestrator
//	  (send, sample, result back) minus the benches' elapsed time, per run;
//	container-start-ms: creating, attaching and starting the container,
//	  paid once per language and cpuset in a whole `halebench run`.
//
// go test -run=^$ -bench=SampleOverhead -benchtime=20x ./orchestrator/runner
//
// With HALEBENCH_PHASES=1 the sampler times each step of a sample
// (`serve -phases`, images/sampler/phases.go) and the benchmark reports
// each step's median, in µs.
func BenchmarkSampleOverhead(b *testing.B) {
	eng := enginetest.Connect(b)
	img, priv := enginetest.BenchImage(b, eng, "c", "testdata/small.c")
	info, _ := eng.Info(context.Background())
	cpus, _, _ := runner.PlanCPUs(info.LogicalCPUs, 1)
	c, _ := suite.ByName("c")
	var args []string
	ph := phaseMedians{}
	if os.Getenv("HALEBENCH_PHASES") != "" {
		args = []string{"-phases"}
	}
	srv, err := runner.StartServer(context.Background(), eng, runner.ServerSpec{Image: img, CPUs: cpus, Privilege: priv, RunID: "bench-overhead", MemLimit: 1 << 30, Lang: "c", SamplerArgs: args})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	var inContainer []int64
	var roundTrip, elapsed, runs int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		o := srv.Run(context.Background(), runner.Job{Unit: "small", Lang: c, Iters: 5, Warmup: 1,
			Timeout: time.Minute, Seed: 1, MemLimit: 1 << 30, OutCap: 1 << 20})
		if o.Status != "ok" {
			b.Fatalf("%s %s", o.Status, o.Detail)
		}
		roundTrip += o.JobNs
		for _, s := range append(o.Warmups, o.Samples...) {
			inContainer = append(inContainer, s.Fig(wire.WallNs)-s.Fig(wire.ElapsedNs))
			elapsed += s.Fig(wire.ElapsedNs)
			runs++
		}
		if args != nil {
			b.StopTimer()
			ph.add(b, srv, i+1, len(o.Warmups)+len(o.Samples), o.JobNs)
			b.StartTimer()
		}
	}
	b.StopTimer()
	ph.report(b)
	b.ReportMetric(float64(stats.Median(inContainer))/1e6, "in-container-ms/sample")
	b.ReportMetric(float64(roundTrip-elapsed)/1e6/float64(runs), "orchestration-ms/sample")
	b.ReportMetric(float64(srv.StartNs)/1e6, "container-start-ms")
}

// phaseMedians gathers the sampler's phase lines: each step's times, and
// per job the sampler's time and the rest of the round trip (the job and
// result lines' way through the engine).
type phaseMedians struct {
	order []string
	us    map[string][]int64
}

func (p *phaseMedians) put(k string, us int64) {
	if p.us == nil {
		p.us = map[string][]int64{}
	}
	if _, ok := p.us[k]; !ok {
		p.order = append(p.order, k)
	}
	p.us[k] = append(p.us[k], us)
}

// add reads the n-th job's lines on the sampler's stderr: its samples'
// lines and its own; jobNs is its round trip seen by the runner. Stderr
// comes apart from the result, so it waits for the job's line a moment.
func (p *phaseMedians) add(b *testing.B, srv *runner.Server, n, samples int, jobNs int64) {
	mark := fmt.Sprintf("halebench-sampler job: n=%d job=", n)
	var lines []string
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		lines = strings.Split(runner.ServerStderr(srv), "\n")
		if slices.ContainsFunc(lines, func(l string) bool { return strings.HasPrefix(l, mark) }) {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("no line %q on the sampler's stderr", mark)
		}
	}
	var steps []string
	for _, l := range lines {
		if rest, ok := strings.CutPrefix(l, "halebench-sampler phases:"); ok {
			steps = append(steps, rest)
		} else if rest, ok := strings.CutPrefix(l, mark); ok {
			job, _ := strconv.ParseInt(rest, 10, 64)
			p.put("job-in-sampler", job)
			p.put("job-outside-sampler", jobNs/1000-job)
			break
		}
	}
	for _, l := range steps[max(0, len(steps)-samples):] {
		for _, f := range strings.Fields(l) {
			k, v, _ := strings.Cut(f, "=")
			if us, err := strconv.ParseInt(v, 10, 64); err == nil {
				p.put(k, us)
			}
		}
	}
}

func (p *phaseMedians) report(b *testing.B) {
	for _, k := range p.order {
		unit := k + "-µs"
		if strings.HasSuffix(k, "-switches") {
			unit = k + "/sample" // a count
		}
		b.ReportMetric(float64(stats.Median(p.us[k])), unit)
	}
}
