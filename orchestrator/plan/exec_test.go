package plan

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/runner"
)

// fakeSampler logs what it was sent and fails the images in fail.
type fakeSampler struct {
	sent   []runner.Job
	where  []runner.Where
	pairs  []runner.PairWhere
	fail   map[string]bool
	onSend func(n int)
}

func (f *fakeSampler) Sample(ctx context.Context, w runner.Where, j runner.Job) runner.Outcome {
	f.sent, f.where = append(f.sent, j), append(f.where, w)
	if f.onSend != nil {
		f.onSend(len(f.sent))
	}
	if f.fail[w.Image] {
		return runner.Outcome{Status: outcome.RunFailed, Samples: []runner.Sample{}}
	}
	return runner.Outcome{Status: outcome.OK, Samples: []runner.Sample{{Figures: wire.Figures{wire.ElapsedNs: int64(len(f.sent))}}}}
}

func (f *fakeSampler) SamplePair(ctx context.Context, w runner.PairWhere, reader, producer runner.Job) (runner.Outcome, *runner.Outcome) {
	f.pairs = append(f.pairs, w)
	ro := f.Sample(ctx, w.Reader, reader)
	po := f.Sample(ctx, w.Producer, producer)
	return ro, &po
}

func job(bench, image string) Job {
	return Job{Cell: Cell{Bench: bench, Lang: "c"}, Where: runner.Where{Lang: "c", Image: image, CPUs: "1"},
		Job: runner.Job{Unit: bench, Iters: 7, Warmup: 2, Count: &wire.CountJob{Runs: 2}}}
}

// label names a step's job by its image.
func label(units [][]Job, s Step) string { return units[s.Unit][s.Job].Where.Image }

func TestExecFirstRoundWarmsAndCountsLaterRoundsSampleOnce(t *testing.T) {
	f := &fakeSampler{}
	units := [][]Job{{job("x", "xa")}, {job("y", "ya")}}
	var took []string
	e := &Exec{Sampler: f, Schedule: RoundRobin{N: 3}, Units: units,
		Take: func(round int, s Step, r Result) bool {
			took = append(took, fmt.Sprintf("%d:%s:%s", round, label(units, s), r.Outcome.Status))
			return false
		}}
	stop, rounds := e.Run(context.Background())
	if stop != Finished || rounds != 3 {
		t.Fatalf("Run = %s after %d rounds, want %s after 3", stop, rounds, Finished)
	}
	want := []string{"1:xa:ok", "1:ya:ok", "2:xa:ok", "2:ya:ok", "3:xa:ok", "3:ya:ok"}
	if !reflect.DeepEqual(took, want) {
		t.Fatalf("took %v, want %v", took, want)
	}
	for i, j := range f.sent {
		first := i < 2
		if j.Iters != 1 || (j.Warmup == 2) != first || (j.Count != nil) != first {
			t.Errorf("job %d: iters %d warmup %d count %v; want one sample, warm-ups and counts in round 1 only", i, j.Iters, j.Warmup, j.Count)
		}
	}
	if units[0][0].Job.Iters != 7 || units[0][0].Job.Count == nil {
		t.Fatal("Run changed the plan's own jobs")
	}
}

// A unit Take calls done sends nothing more: not its other side in the
// round (ab's pair whose first side failed), not in later rounds.
func TestExecDoneUnitSendsNothingMore(t *testing.T) {
	f := &fakeSampler{fail: map[string]bool{"ya": true}}
	units := [][]Job{{job("x", "xa"), job("x", "xb")}, {job("y", "ya"), job("y", "yb")}}
	var looks []int
	e := &Exec{Sampler: f, Schedule: RoundRobin{N: 5}, Units: units,
		Take: func(_ int, s Step, r Result) bool {
			return r.Outcome.Status != outcome.OK || s.Unit == 0 && s.Job == 1 && len(f.sent) > 4
		},
		Looks: []int{1, 3, 4}, Look: func(r int) { looks = append(looks, r) }}
	stop, rounds := e.Run(context.Background())
	if stop != Resolved || rounds != 2 {
		t.Fatalf("Run = %s after %d rounds, want %s after 2", stop, rounds, Resolved)
	}
	var images []string
	for _, w := range f.where {
		images = append(images, w.Image)
	}
	if want := []string{"xa", "xb", "ya", "xa", "xb"}; !reflect.DeepEqual(images, want) {
		t.Fatalf("sent %v, want %v (yb never: its pair's first side failed)", images, want)
	}
	if !reflect.DeepEqual(looks, []int{1}) {
		t.Fatalf("looks after rounds %v, want [1]: round 2 is no look and round 3 never ran", looks)
	}
}

// Once ctx is cancelled no job is sent: the round's remaining steps are
// taken as interrupted, and no further round starts.
func TestExecSendsNothingOnceInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	f := &fakeSampler{onSend: func(n int) {
		if n == 2 {
			cancel()
		}
	}}
	units := [][]Job{{job("x", "xa")}, {job("y", "ya")}, {job("z", "za")}}
	var notSent []string
	e := &Exec{Sampler: f, Schedule: RoundRobin{N: 4}, Units: units,
		Take: func(_ int, s Step, r Result) bool {
			if r.NotSent {
				notSent = append(notSent, label(units, s)+":"+string(r.Outcome.Status))
				return true
			}
			return false
		}}
	stop, rounds := e.Run(ctx)
	if stop != Stopped || rounds != 1 {
		t.Fatalf("Run = %s after %d rounds, want %s after 1", stop, rounds, Stopped)
	}
	if len(f.sent) != 2 || !reflect.DeepEqual(notSent, []string{"za:interrupted"}) {
		t.Fatalf("sent %d jobs, not sent %v; want 2 sent and za taken as interrupted", len(f.sent), notSent)
	}
}

func TestExecStartsOnlyLiveUnits(t *testing.T) {
	f := &fakeSampler{}
	units := [][]Job{{job("x", "xa")}, {job("y", "ya")}}
	e := &Exec{Sampler: f, Schedule: RoundRobin{N: 2}, Units: units, Live: func(u int) bool { return u == 1 },
		Take: func(int, Step, Result) bool { return false }}
	if stop, _ := e.Run(context.Background()); stop != Finished {
		t.Fatalf("Run = %s, want %s", stop, Finished)
	}
	for _, w := range f.where {
		if w.Image != "ya" {
			t.Fatalf("sent %s: a unit not live at the start was sampled", w.Image)
		}
	}
	if len(f.where) != 2 {
		t.Fatalf("sent %d jobs, want 2", len(f.where))
	}
}

// A job with a Producer is an xproc pair: one SamplePair, its producer on
// its own placement, both outcomes returned.
func TestSendPairGoesThroughSamplePair(t *testing.T) {
	f := &fakeSampler{}
	reader := job("small", "img")
	reader.Side = "reader"
	reader.Producer = &Producer{Where: runner.Where{Lang: "c", Image: "img", CPUs: "0"}, Job: runner.Job{Unit: "prod", Iters: 1}, ShmSize: 256 << 20}
	r := Send(context.Background(), f, reader)
	if len(f.pairs) != 1 || r.Producer == nil || r.Outcome.Status != outcome.OK {
		t.Fatalf("pairs %v, result %+v: want one pair with both outcomes", f.pairs, r)
	}
	want := runner.PairWhere{Reader: reader.Where, Producer: reader.Producer.Where, ShmSize: 256 << 20}
	if f.pairs[0] != want {
		t.Fatalf("pair at %+v, want %+v", f.pairs[0], want)
	}
	if f.sent[1].Unit != "prod" {
		t.Fatalf("producer job %+v, want the producer's", f.sent[1])
	}
}

// countSampler answers count jobs (no sample) from several goroutines,
// noting each job's CPU and whether two ran on one CPU at once.
type countSampler struct {
	mu    sync.Mutex
	busy  map[string]bool
	clash bool
	sent  []runner.Job
	cpu   map[string][]string // unit → the CPUs its jobs ran on, in order
}

func (f *countSampler) Sample(_ context.Context, w runner.Where, j runner.Job) runner.Outcome {
	f.mu.Lock()
	f.clash = f.clash || f.busy[w.CPUs]
	f.busy[w.CPUs] = true
	f.sent = append(f.sent, j)
	f.cpu[j.Unit] = append(f.cpu[j.Unit], w.CPUs)
	f.mu.Unlock()
	time.Sleep(time.Millisecond)
	f.mu.Lock()
	f.busy[w.CPUs] = false
	f.mu.Unlock()
	return runner.Outcome{Status: outcome.OK, Counts: []runner.Count{{Status: wire.CountOK, Ir: uint64(j.Count.Runs)}}}
}

func (f *countSampler) SamplePair(context.Context, runner.PairWhere, runner.Job, runner.Job) (runner.Outcome, *runner.Outcome) {
	panic("no pair in a count lane")
}

// With CPUs, a round's units run side by side, one at a time per CPU,
// each unit's steps in order on the CPU that took it; Shape makes each
// step's job, its word the last (a count job takes no sample; its false
// ends the unit unsent, Take not called).
func TestExecUnitsSideBySideOnCPUs(t *testing.T) {
	f := &countSampler{busy: map[string]bool{}, cpu: map[string][]string{}}
	var units [][]Job
	for i := 0; i < 8; i++ {
		j := Job{Cell: Cell{Bench: fmt.Sprint("b", i), Lang: "c"}, Where: runner.Where{Lang: "c", Image: "img", CPUs: "0-1"},
			Job: runner.Job{Unit: fmt.Sprint("b", i)}}
		units = append(units, []Job{j, j})
	}
	var mu sync.Mutex
	took := map[string][]int{}
	e := &Exec{Sampler: f, Schedule: RoundRobin{N: 1}, Units: units, CPUs: []string{"2", "3"},
		Shape: func(_ int, s Step, j Job) (Job, bool) {
			if s.Unit == 7 && s.Job == 1 {
				return j, false // b7's budget spent before its second job
			}
			j.Job.Iters, j.Job.Count = 0, &wire.CountJob{Runs: 1 + s.Job}
			return j, true
		},
		Take: func(_ int, s Step, r Result) bool {
			mu.Lock()
			defer mu.Unlock()
			took[units[s.Unit][0].Job.Unit] = append(took[units[s.Unit][0].Job.Unit], int(r.Outcome.Counts[0].Ir))
			return s.Unit == 6 && s.Job == 0 // b6 settled by its first
		}}
	if stop, _ := e.Run(context.Background()); stop != Finished {
		t.Fatalf("Run = %s", stop)
	}
	if f.clash {
		t.Error("two jobs ran on one CPU at once")
	}
	for i := 0; i < 8; i++ {
		u := fmt.Sprint("b", i)
		want := []int{1, 2}
		if i >= 6 {
			want = []int{1}
		}
		if !reflect.DeepEqual(took[u], want) {
			t.Errorf("%s took %v, want %v", u, took[u], want)
		}
		if cpus := f.cpu[u]; len(cpus) == 0 || (cpus[0] != "2" && cpus[0] != "3") || (len(cpus) == 2 && cpus[1] != cpus[0]) {
			t.Errorf("%s ran on %v: want its jobs on one CPU of 2, 3", u, cpus)
		}
	}
	for _, j := range f.sent {
		if j.Iters != 0 {
			t.Errorf("a count job was sent with %d samples", j.Iters)
		}
	}
}
