package runner_test

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// The channel takes one ready line, only for the job in hand, only with its
// nonce, only when the job asked; and a result ends the job.
func TestAnswerHoldsTheChannelStrict(t *testing.T) {
	calls := 0
	j := runner.Job{OnReady: func() { calls++ }}
	ready := strings.TrimSuffix(string(wire.EncodeReady("4", "n")), "\n")
	if _, final, err := runner.Answer(ready, "4", "n", &j); err != nil || final || calls != 1 || j.OnReady != nil {
		t.Fatalf("the ready line asked for: final %v, err %v, %d calls", final, err, calls)
	}
	bad := map[string]runner.Job{
		"a second ready line": j,
		strings.TrimSuffix(string(wire.EncodeReady("3", "n")), "\n"): {OnReady: func() { calls++ }},
		strings.TrimSuffix(string(wire.EncodeReady("4", "x")), "\n"): {OnReady: func() { calls++ }},
		"ready": {OnReady: func() { calls++ }},
		strings.TrimSuffix(string(wire.EncodeResult(wire.Result{ID: "3", Nonce: "n", Status: "ok"})), "\n"): {},
	}
	for line, bj := range bad {
		if line == "a second ready line" {
			line = ready
		}
		if _, _, err := runner.Answer(line, "4", "n", &bj); err == nil {
			t.Errorf("%q was taken", line)
		}
	}
	if calls != 1 {
		t.Errorf("OnReady called %d times", calls)
	}
	res, final, err := runner.Answer(strings.TrimSuffix(string(wire.EncodeResult(wire.Result{ID: "4", Nonce: "n", Status: "ok"})), "\n"), "4", "n", &j)
	if err != nil || !final || res.Status != "ok" {
		t.Fatalf("the job's result: %+v final %v err %v", res, final, err)
	}
}

// A job that asks hears its bench's "ready" once, before its result; one
// that does not ask hears nothing and the server serves on.
func TestServerReadyLine(t *testing.T) {
	eng := enginetest.Connect(t)
	progs, _ := filepath.Glob("testdata/pair/*.c")
	img, priv := enginetest.BenchImage(t, eng, "c", progs...)
	runID := "test-ready-" + time.Now().Format("150405.000")
	srv, err := runner.StartServer(context.Background(), eng, runner.ServerSpec{Image: img, CPUs: "0", Privilege: priv, RunID: runID, Lang: "c"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		srv.Close()
		enginetest.NoLeftovers(t, eng, runID)
	}()
	c, _ := suite.ByName("c")
	calls := 0
	for _, ask := range []bool{true, false, true} {
		j := runner.Job{Unit: "sayready", Lang: c, Iters: 1, Timeout: 30 * time.Second}
		before := calls
		if ask {
			j.OnReady = func() { calls++ }
		}
		o := srv.Run(context.Background(), j)
		if o.Status != outcome.OK || o.Samples[0].Check != "said" || srv.Dead() != nil {
			t.Fatalf("ask %v: %+v (dead: %v)", ask, o, srv.Dead())
		}
		if want := before + map[bool]int{true: 1}[ask]; calls != want {
			t.Fatalf("ask %v: OnReady called %d times, want %d", ask, calls-before, want-before)
		}
	}
}

// recording is the real engine, keeping what it made so that a test can
// kill one of a pool's containers.
type recording struct {
	runner.Engine
	mu   sync.Mutex
	made map[string]engine.Container
}

func (r *recording) Create(ctx context.Context, s engine.Spec) (engine.Container, error) {
	c, err := r.Engine.Create(ctx, s)
	if err == nil {
		r.mu.Lock()
		r.made[c.Identity()] = c
		r.mu.Unlock()
	}
	return c, err
}

// An xproc pair on the pool: two containers on their own cpusets sharing
// one /dev/shm, the producer's job sent on the reader's ready, kept from one
// run to the next and both replaced when one dies. What the producer
// leaves in the shared room after the reader's sampler last emptied it
// (a file in /dev/shm) reaches no later run, and the System V segment it
// made is gone before its own sample ends.
func TestSamplePair(t *testing.T) {
	eng := enginetest.Connect(t)
	progs, _ := filepath.Glob("testdata/pair/*.c")
	img, priv := enginetest.BenchImage(t, eng, "c", progs...)
	info, _ := eng.Info(context.Background())
	rc, pc := "0", "0"
	if info.LogicalCPUs > 1 {
		rc = "1"
	}
	runID := "test-pair-" + time.Now().Format("150405.000")
	rec := &recording{Engine: eng, made: map[string]engine.Container{}}
	pool := runner.NewPool(rec, priv, runID, 1<<30, io.Discard)
	defer func() {
		pool.Close()
		enginetest.NoLeftovers(t, eng, runID)
	}()
	c, _ := suite.ByName("c")
	w := runner.PairWhere{Reader: runner.Where{Lang: "c", Image: img, CPUs: rc}, Producer: runner.Where{Lang: "c", Image: img, CPUs: pc}, ShmSize: 64 << 20}
	job := func(role string) runner.Job {
		return runner.Job{Unit: "shmpair", Lang: c, Iters: 1, Timeout: 30 * time.Second, Args: []string{role}}
	}
	pair := func(run int) (runner.Outcome, *runner.Outcome) {
		ro, po := pool.SamplePair(context.Background(), w, job("reader"), job("producer"))
		if ro.Status != outcome.OK || po == nil || po.Status != outcome.OK {
			return ro, po
		}
		if got := ro.Samples[0].Check; got != "seen:none,sysv:0" {
			t.Errorf("run %d: the reader found %q in the shared room", run, got)
		}
		if got := po.Samples[0].Check; got != "late:0" {
			t.Errorf("run %d: the producer could not leave its file: %s", run, got)
		}
		if ro.ContainerID == po.ContainerID || ro.Env.Affinity != rc || po.Env.Affinity != pc {
			t.Fatalf("run %d: reader %s on %s, producer %s on %s", run, ro.ContainerID, ro.Env.Affinity, po.ContainerID, po.Env.Affinity)
		}
		return ro, po
	}
	var first [2]string
	for run := 1; run <= 3; run++ {
		ro, po := pair(run)
		if ro.Status != outcome.OK || po == nil || po.Status != outcome.OK {
			t.Fatalf("run %d: reader %+v, producer %+v", run, ro, po)
		}
		if run == 1 {
			first = [2]string{ro.ContainerID, po.ContainerID}
		} else if ro.ContainerID != first[0] || po.ContainerID != first[1] {
			t.Fatalf("run %d: containers %s/%s, not the pair's %v", run, ro.ContainerID, po.ContainerID, first)
		}
	}
	// The producer's container dies between runs: the next run that knows
	// it (at once, or the one after the run that finds it gone) has two
	// fresh containers.
	rec.mu.Lock()
	killed := rec.made[first[1]]
	rec.mu.Unlock()
	killed.Kill(context.Background())
	killed.Wait(context.Background())
	ro, po := pair(4)
	if ro.Status != outcome.OK || po == nil || po.Status != outcome.OK {
		t.Logf("run 4 found the producer gone: %s %s", ro.Status, ro.Detail)
		if ro, po = pair(5); ro.Status != outcome.OK || po == nil || po.Status != outcome.OK {
			t.Fatalf("run 5: reader %+v, producer %+v", ro, po)
		}
	}
	if ro.ContainerID == first[0] || po.ContainerID == first[1] {
		t.Fatalf("after the producer died: containers %s/%s, the pair was %v", ro.ContainerID, po.ContainerID, first)
	}
	if n := len(pool.Started()); n != 4 {
		t.Fatalf("%d containers started, want 2 per pair", n)
	}
}
