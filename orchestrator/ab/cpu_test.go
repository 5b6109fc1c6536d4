package ab

import (
	"context"
	"math/rand"
	"testing"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/runner"
)

// cpuSampler is fakeSampler whose samples also carry a CPU time: the
// elapsed time times the image's factor (a side that burns CPU on a
// second thread while its timed region stays the same).
type cpuSampler struct {
	*fakeSampler
	factor map[string]float64
}

func (c cpuSampler) Sample(ctx context.Context, w runner.Where, j runner.Job) runner.Outcome {
	o := c.fakeSampler.Sample(ctx, w, j)
	for i := range o.Samples {
		o.Samples[i].Set(wire.CPUNs, int64(float64(o.Samples[i].Fig(wire.ElapsedNs))*c.factor[w.Image]))
	}
	return o
}

// ab --metric=cpu pairs the sides' CPU times: the same elapsed time is
// same by time and slower by CPU where B burns 1.5 times the CPU.
func TestCompareByCPU(t *testing.T) {
	for _, tc := range []struct {
		m    *judge.Metric
		want outcome.Status
	}{{judge.MetricTime, outcome.Same}, {judge.CPU, outcome.Slower}} {
		f := cpuSampler{&fakeSampler{rng: rand.New(rand.NewSource(5)), times: map[string]float64{"a": 1e6, "b": 1e6}}, map[string]float64{"a": 1, "b": 1.5}}
		res := Compare(context.Background(), f, []Pair{pair("m", "a", "b")}, Settings{Seed: 5, Metric: tc.m})
		if b := res.Benches[0]; b.Verdict != tc.want || res.Metric != tc.m.Name {
			t.Errorf("metric %s: %s (ratio %.3f), result names %q", tc.m.Name, b.Verdict, b.Ratio, res.Metric)
		}
	}
}
