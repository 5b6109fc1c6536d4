package runner_test

import (
	"context"
	"github.com/hale-lang/halebench/images/sampler/wire"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// One server container takes job after job — failures of every kind
// included — and each job gets the same verdict it gets alone.
func TestServerRunsManyJobs(t *testing.T) {
	eng := enginetest.Connect(t)
	progs, _ := filepath.Glob("testdata/*.c")
	img, priv := enginetest.BenchImage(t, eng, "c", progs...)
	info, _ := eng.Info(context.Background())
	cpus, _, _ := runner.PlanCPUs(info.LogicalCPUs, 1)
	c, _ := suite.ByName("c")
	runID := "test-server-" + time.Now().Format("150405.000")
	ctx := context.Background()
	srv, err := runner.StartServer(ctx, eng, runner.ServerSpec{Image: img, CPUs: cpus, Privilege: priv, RunID: runID, MemLimit: 1 << 30, Lang: "c"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := srv.Close(); err != nil {
			t.Error(err)
		}
		enginetest.NoLeftovers(t, eng, runID)
	}()
	privileged := priv.Mode != engine.ModeUnprivileged
	cases := []struct {
		unit      string
		status    outcome.Status
		mem       int64
		needsPriv bool
	}{
		{"small", "ok", 1 << 30, false},
		{"crash", "run_failed", 1 << 30, false},
		{"hang", "timeout", 1 << 30, false},
		{"noelapsed", "no_elapsed", 1 << 30, false},
		{"hog", "oom", 128 << 20, true},
		{"broken", "build_failed", 1 << 30, false},
		{"touch256", "ok", 1 << 30, false},
		{"small", "ok", 1 << 30, false},
	}
	for _, tc := range cases {
		if tc.needsPriv && !privileged {
			continue
		}
		o := srv.Run(ctx, runner.Job{Unit: tc.unit, Lang: c, Iters: 2, Warmup: 1,
			Timeout: 2 * time.Second, Seed: 3, MemLimit: tc.mem, OutCap: 1 << 20, Env: []string{"HALEBENCH_TEST=1"}})
		if o.Status != tc.status {
			t.Fatalf("%s: status %q (%s), want %q", tc.unit, o.Status, o.Detail, tc.status)
		}
		if o.ContainerID != srv.ContainerID() || srv.Dead() != nil {
			t.Fatalf("%s: the server did not survive: %v", tc.unit, srv.Dead())
		}
		if tc.unit == "touch256" && privileged {
			for _, s := range o.Samples {
				if p, ok := s.Figures.Get(wire.MemPeakKB); !ok || p < 256*1024 {
					t.Fatalf("touch256 peak %v", p)
				}
			}
		}
		if tc.unit == "small" && (o.Samples[0].Check != "acc:3" || o.Env.Affinity != cpus) {
			t.Fatalf("small: %+v, env %+v", o.Samples[0], o.Env)
		}
		if tc.unit == "broken" && !strings.Contains(o.BuildError, "undefined_symbol") {
			t.Fatalf("broken: %+v", o)
		}
	}
}

// A cancelled run kills the server; nothing is left.
func TestServerCancel(t *testing.T) {
	eng := enginetest.Connect(t)
	img, priv := enginetest.BenchImage(t, eng, "c", "testdata/hang.c")
	c, _ := suite.ByName("c")
	runID := "test-server-cancel-" + time.Now().Format("150405.000")
	srv, err := runner.StartServer(context.Background(), eng, runner.ServerSpec{Image: img, CPUs: "0", Privilege: priv, RunID: runID, Lang: "c"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	o := srv.Run(ctx, runner.Job{Unit: "hang", Lang: c, Iters: 1, Timeout: time.Minute})
	if o.Status != "interrupted" || srv.Dead() == nil {
		t.Fatalf("status %q, dead %v", o.Status, srv.Dead())
	}
	srv.Close()
	enginetest.NoLeftovers(t, eng, runID)
}
