package xproc

import (
	"context"
	"github.com/hale-lang/halebench/images/sampler/wire"
	"io"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// pairSampler answers xproc pairs: the reader's check is check, and from
// the failAt'th pair on the producer crashes and the reader exits 3.
type pairSampler struct {
	check            string
	failAt, n        int
	readers, prods   []runner.Job
	readerW, producW []runner.Where
}

func (f *pairSampler) Sample(ctx context.Context, w runner.Where, j runner.Job) runner.Outcome {
	panic("a cross-process row sent a single job")
}

func (f *pairSampler) SamplePair(ctx context.Context, w runner.PairWhere, reader, producer runner.Job) (runner.Outcome, *runner.Outcome) {
	f.n++
	f.readers, f.prods = append(f.readers, reader), append(f.prods, producer)
	f.readerW, f.producW = append(f.readerW, w.Reader), append(f.producW, w.Producer)
	if f.failAt > 0 && f.n >= f.failAt {
		ro := runner.Outcome{Status: outcome.RunFailed, ContainerID: "r", Detail: "exit 3",
			Samples: []runner.Sample{{Status: string(outcome.RunFailed), ExitCode: producerFailedExit}}}
		po := runner.Outcome{Status: outcome.RunFailed, ContainerID: "p", Detail: "signal SIGSEGV", Samples: []runner.Sample{}}
		return ro, &po
	}
	ro := runner.Outcome{Status: outcome.OK, ContainerID: "r", Samples: []runner.Sample{{Status: "ok", Figures: wire.Figures{wire.ElapsedNs: int64(1000 * f.n)}, Check: f.check}}}
	po := runner.Outcome{Status: outcome.OK, ContainerID: "p", Samples: []runner.Sample{{Status: "ok"}}}
	return ro, &po
}

func cRow(t *testing.T, variant string) Row {
	c, ok := suite.ByName("c")
	if !ok {
		t.Fatal("no c in the language table")
	}
	return Rows(variant, []suite.Language{c})[0]
}

// Each run of a row is one pair of jobs placed as every verb's are: one
// sample, the pair's limits and shared-memory variables, the role and
// variant as arguments, reader and producer on two CPUs.
func TestMeasureSendsPlacedPairs(t *testing.T) {
	f := &pairSampler{check: expected["small"]}
	p := &Pair{Sampler: f, Lang: "c", Image: "img", NCPU: 4, Timeout: 5e9, Log: io.Discard}
	res := p.Measure(context.Background(), cRow(t, "small"), "small", 3)
	if res.Status != outcome.OK || len(res.Runs) != 3 || res.ElapsedNsMedian != 2000 {
		t.Fatalf("result %s %q, %d runs, median %d; want ok, 3 runs, median 2000", res.Status, res.Detail, len(res.Runs), res.ElapsedNsMedian)
	}
	for i, j := range append(append([]runner.Job{}, f.readers...), f.prods...) {
		if j.Iters != 1 || j.MemLimit != MemLimit || j.OutCap != OutCap || j.Timeout != 5e9 {
			t.Errorf("job %d: iters %d mem %d out %d timeout %s; want one sample held to the pair's limits", i, j.Iters, j.MemLimit, j.OutCap, j.Timeout)
		}
		want := []string{"HALEBENCH_SHM_NAME=halebench_xproc_small", "HALEBENCH_XPROC_TIMEOUT_MS=10000"}
		if len(j.Env) != 2 || j.Env[0] != want[0] || j.Env[1] != want[1] {
			t.Errorf("job %d: env %v, want %v", i, j.Env, want)
		}
	}
	if r, pr := f.readers[0], f.prods[0]; len(r.Args) != 2 || r.Args[0] != "reader" || pr.Args[0] != "producer" || r.Args[1] != "small" {
		t.Errorf("args reader %v producer %v", r.Args, pr.Args)
	}
	if f.readerW[0].CPUs == f.producW[0].CPUs {
		t.Errorf("reader and producer both on cpus %s", f.readerW[0].CPUs)
	}
}

// The first run that fails ends the row, with the producer named as the
// cause when the reader exited 3; a wrong check is bad_checksum.
func TestMeasureStopsAtTheFirstFailure(t *testing.T) {
	f := &pairSampler{check: expected["large"], failAt: 2}
	p := &Pair{Sampler: f, Lang: "c", Image: "img", NCPU: 2, Timeout: 5e9, Log: io.Discard}
	res := p.Measure(context.Background(), cRow(t, "large"), "large", 5)
	if res.Status != outcome.ProducerFailed || len(res.Runs) != 2 || f.n != 2 {
		t.Fatalf("result %s %q after %d runs (%d sent); want producer_failed after 2", res.Status, res.Detail, len(res.Runs), f.n)
	}
	bad := &pairSampler{check: "n:1"}
	p.Sampler = bad
	res = p.Measure(context.Background(), cRow(t, "small"), "small", 4)
	if res.Status != outcome.BadChecksum || bad.n != 1 {
		t.Fatalf("result %s after %d runs; want bad_checksum after 1", res.Status, bad.n)
	}
}

func TestMeasureInterruptedSendsNothing(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f := &pairSampler{check: expected["small"]}
	p := &Pair{Sampler: f, Lang: "c", Image: "img", NCPU: 2, Timeout: 5e9, Log: io.Discard}
	res := p.Measure(ctx, cRow(t, "small"), "small", 3)
	if res.Status != outcome.Interrupted || f.n != 0 {
		t.Fatalf("result %s after %d pairs sent; want interrupted, none sent", res.Status, f.n)
	}
}
