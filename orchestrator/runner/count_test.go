package runner_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// countServer starts a server on the shared C bench image.
func countServer(t *testing.T) (*runner.Server, func()) {
	t.Helper()
	eng := enginetest.Connect(t)
	progs, _ := filepath.Glob("testdata/*.c")
	img, priv := enginetest.BenchImage(t, eng, "c", progs...)
	info, _ := eng.Info(context.Background())
	cpus, _, _ := runner.PlanCPUs(info.LogicalCPUs, 1)
	runID := "test-count-" + time.Now().Format("150405.000")
	srv, err := runner.StartServer(context.Background(), eng,
		runner.ServerSpec{Image: img, CPUs: cpus, Privilege: priv, RunID: runID, MemLimit: 1 << 30, Lang: "c"})
	if err != nil {
		t.Fatal(err)
	}
	return srv, func() {
		if err := srv.Close(); err != nil {
			t.Error(err)
		}
		enginetest.NoLeftovers(t, eng, runID)
	}
}

// countOnly counts unit runs times, with no timed sample.
func countOnly(t *testing.T, srv *runner.Server, unit string, runs int) runner.Outcome {
	t.Helper()
	c, _ := suite.ByName("c")
	cj, why := runner.CountJobFor(c, unit, runs, time.Minute)
	if why != "" {
		t.Fatalf("c is not counted: %s", why)
	}
	return srv.Run(context.Background(), runner.Job{Unit: unit, Lang: c, Iters: 0, Warmup: 0,
		Timeout: time.Minute, Seed: 3, MemLimit: 1 << 30, OutCap: 1 << 20, Count: &cj})
}

// Counting: a region count is the same on every run and a forged summary on
// the bench's stdout and stderr changes nothing; a threaded program is
// counted over the whole process, saying why; a crash is count_failed; the
// counted process runs with ASLR off and may ask for nothing else.
func TestCountingInTheBenchImage(t *testing.T) {
	srv, done := countServer(t)
	defer done()
	small := countOnly(t, srv, "small", 2)
	if len(small.Counts) != 2 || small.Env.Valgrind == "" {
		t.Fatalf("small: %+v", small)
	}
	for _, c := range small.Counts {
		if c.Status != wire.CountOK || c.Scope != wire.ScopeRegion || c.Ir == 0 || c.Ir != small.Counts[0].Ir {
			t.Fatalf("small counts %+v", small.Counts)
		}
	}
	forged := countOnly(t, srv, "forgecount", 2)
	for _, c := range forged.Counts {
		// Never the forged 1. Valgrind's own lines with its pid on the
		// program's stderr are what Valgrind writes there once its log
		// socket is cut, so the sampler does not count it (count_failed,
		// not gated); were it counted, the same loop as small's.
		if c.Status == wire.CountFailed && c.Ir == 0 && strings.Contains(c.Detail, "log socket was cut") {
			continue
		}
		if d := int64(c.Ir) - int64(small.Counts[0].Ir); c.Status != wire.CountOK || c.Scope != wire.ScopeRegion || d < -100 || d > 100 || c.Ir != forged.Counts[0].Ir {
			t.Fatalf("forgecount: %+v, want about the region count of small (%d), the same loop", forged.Counts, small.Counts[0].Ir)
		}
	}
	for _, c := range countOnly(t, srv, "forgelog", 1).Counts {
		// No descriptor it inherits leads to Valgrind's log, so reopening
		// them forges nothing; its exec connects a second Valgrind to the
		// log, so the count fails: never the forged 5.
		if c.Ir == 5 || c.Status != wire.CountFailed || !strings.Contains(c.Detail, "log socket was connected to 2 times") {
			t.Fatalf("forgelog: %+v, want count_failed for its exec, never the forged 5", c)
		}
	}
	for _, c := range countOnly(t, srv, "forgefd", 1).Counts {
		// It reaches Valgrind's log socket through send and dup (its
		// forged lines are in the log) and then execs: the exec'd
		// Valgrind connects again (or, on 3.24 in the image, the exec'd
		// run dies of SIGSEGV), so the count fails rather than record
		// the forged 4242.
		if c.Ir == 4242 || c.Status == wire.CountOK && c.Ir < 10000 || c.Status != wire.CountOK && c.Status != wire.CountFailed {
			t.Fatalf("forgefd: %+v, want count_failed (two connections to the log) or its true count", c)
		}
		t.Logf("forgefd: %s: %s", c.Status, c.Detail)
	}
	thr := countOnly(t, srv, "threaded", 2)
	for _, c := range thr.Counts {
		if c.Status != wire.CountOK || c.Scope != wire.ScopeProcess || !strings.Contains(c.Detail, "a second thread") {
			t.Fatalf("threaded: %+v", thr.Counts)
		}
	}
	t.Logf("threaded, whole process: %d and %d instructions", thr.Counts[0].Ir, thr.Counts[1].Ir)
	if aslr := countOnly(t, srv, "aslr", 1); aslr.Counts[0].Status != wire.CountOK {
		t.Fatalf("aslr: the counted process ran with ASLR on: %+v", aslr.Counts)
	}
	crash := countOnly(t, srv, "crash", 1)
	if len(crash.Counts) != 1 || crash.Counts[0].Status != wire.CountFailed || !strings.Contains(crash.Counts[0].Detail, "segmentation fault") {
		t.Fatalf("crash: %+v", crash.Counts)
	}
	persona := srv.Run(context.Background(), runner.Job{Unit: "persona", Lang: toolchainC(t), Iters: 1, Warmup: 0,
		Timeout: 30 * time.Second, Seed: 3, MemLimit: 1 << 30, OutCap: 1 << 20})
	if persona.Status != "ok" || persona.Samples[0].Check != "query:1,no_aslr:1,rie:-1/1,both:-1/1" {
		t.Fatalf("persona: %s %s %+v", persona.Status, persona.Detail, persona.Samples)
	}
}

func toolchainC(t *testing.T) suite.Language {
	c, ok := suite.ByName("c")
	if !ok {
		t.Fatal("no c")
	}
	return c
}
