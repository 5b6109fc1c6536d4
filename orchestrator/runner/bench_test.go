package runner_test

import (
	"context"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/stats"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
)

// BenchmarkSampleOverhead measures what a sample costs beyond the bench's own
// timed region, with a bench whose timed work is ~0.1 ms:
//
//	in-container-ms/sample: the sampler's wall time around one sample
//	  (fork+exec, the program's start-up and exit, the cgroup mkdir/rmdir,
//	  reading the peak) minus the elapsed_ns the bench printed;
//	orchestration-ms/sample: the container's whole life (create, start,
//	  wait, logs, remove) minus the benches' elapsed time, per sample.
//
// go test -run=^$ -bench=SampleOverhead -benchtime=50x ./orchestrator/runner
func BenchmarkSampleOverhead(b *testing.B) {
	eng := enginetest.Connect(b)
	img, priv := enginetest.BenchImage(b, eng, "c", "testdata/small.c")
	info, _ := eng.Info(context.Background())
	cpus, _, _ := runner.PlanCPUs(info.LogicalCPUs, 1)
	c, _ := toolchain.ByName("c")
	b.ResetTimer()
	o := runner.Run(context.Background(), eng, runner.Job{Bench: "small", Unit: "small", Lang: c, Image: img, CPUs: cpus,
		Iters: b.N, Warmup: 0, Timeout: time.Minute, Seed: 1, MemLimit: 1 << 30, OutCap: 1 << 20, Privilege: priv, RunID: "bench-overhead"})
	b.StopTimer()
	if o.Status != "ok" {
		b.Fatalf("%s %s", o.Status, o.Detail)
	}
	var over []int64
	var elapsed int64
	for _, s := range o.Samples {
		over = append(over, s.WallNs-s.ElapsedNs)
		elapsed += s.ElapsedNs
	}
	b.ReportMetric(float64(stats.Median(over))/1e6, "in-container-ms/sample")
	b.ReportMetric(float64(o.ContainerNs-elapsed)/1e6/float64(b.N), "orchestration-ms/sample")
}
