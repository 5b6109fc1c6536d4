package runner_test

import (
	"context"
	"github.com/hale-lang/halebench/images/sampler/wire"
	"os"
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

func TestRunOutcomes(t *testing.T) {
	eng := enginetest.Connect(t)
	progs, _ := filepath.Glob("testdata/*.c")
	img, priv := enginetest.BenchImage(t, eng, "c", progs...)
	info, err := eng.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	cpus, _, err := runner.PlanCPUs(info.LogicalCPUs, 1)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := suite.ByName("c")
	runID := "test-runner-" + time.Now().Format("150405.000")
	job := func(unit string) runner.Job {
		return runner.Job{Unit: unit, Lang: c, Iters: 2, Warmup: 1,
			Timeout: 20 * time.Second, Seed: 7, MemLimit: 1 << 30, OutCap: 1 << 20}
	}
	ctx := context.Background()
	srv, err := runner.StartServer(ctx, eng, runner.ServerSpec{Image: img, CPUs: cpus, Privilege: priv, RunID: runID, MemLimit: 1 << 30, Lang: "c"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.Close()
		enginetest.NoLeftovers(t, eng, runID)
	})

	t.Run("memory peak per sample", func(t *testing.T) {
		if priv.Mode == engine.ModeUnprivileged {
			skipUnlessCI(t, "the engine grants no privilege: no per-sample cgroup")
		}
		big := srv.Run(ctx, job("touch256"))
		small := srv.Run(ctx, job("small"))
		for _, o := range []runner.Outcome{big, small} {
			if o.Status != "ok" || len(o.Samples) != 2 || len(o.Warmups) != 1 {
				t.Fatalf("outcome %+v", o)
			}
		}
		for _, s := range big.Samples {
			if p, ok := s.Figures.Get(wire.MemPeakKB); !ok || p < 256*1024 {
				t.Fatalf("touch256 mem_peak_kb = %v, want >= 262144 (env %+v)", p, big.Env)
			}
			if s.Fig(wire.MaxRSSKB) < 256*1024 {
				t.Fatalf("touch256 maxrss_kb = %d", s.Fig(wire.MaxRSSKB))
			}
		}
		for _, s := range small.Samples {
			if p, ok := s.Figures.Get(wire.MemPeakKB); !ok || p > 16*1024 {
				t.Fatalf("small mem_peak_kb = %v, want a few MiB at most", p)
			}
			if s.Fig(wire.ElapsedNs) <= 0 || s.Check != "acc:7" {
				t.Fatalf("small sample %+v", s)
			}
		}
		if big.Env.Affinity != cpus {
			t.Fatalf("effective cpuset %q, asked %q", big.Env.Affinity, cpus)
		}
		if !strings.Contains(big.Env.MemPeakSource, "per-sample cgroup") {
			t.Fatalf("mem peak source %q", big.Env.MemPeakSource)
		}
	})

	cases := []struct {
		unit   string
		status outcome.Status
		detail string
	}{
		{"crash", "run_failed", "signal"},
		{"exit3", "run_failed", "exit status 3"},
		{"hang", "timeout", "killed after"},
		{"noelapsed", "no_elapsed", ""},
		{"twoelapsed", "bad_output", "2 elapsed_ns lines"},
		{"flood", "bad_output", "over the cap"},
		{"broken_missing", "run_failed", ""},
		{"broken", "build_failed", ""},
	}
	for _, tc := range cases {
		t.Run(tc.unit, func(t *testing.T) {
			j := job(tc.unit)
			if tc.unit == "hang" {
				j.Timeout = 2 * time.Second
			}
			o := srv.Run(ctx, j)
			if tc.status == "build_failed" && !strings.Contains(o.BuildError, "undefined_symbol") {
				t.Fatalf("build_failed without the compiler's message: %+v", o)
			}
			if o.Status != tc.status || !strings.Contains(o.Detail, tc.detail) {
				t.Fatalf("status %q detail %q, want %q containing %q (samples %+v)", o.Status, o.Detail, tc.status, tc.detail, o.Samples)
			}
		})
	}

	t.Run("oom", func(t *testing.T) {
		if priv.Mode == engine.ModeUnprivileged {
			skipUnlessCI(t, "the engine grants no privilege: no per-sample memory limit")
		}
		j := job("hog")
		j.MemLimit = 128 << 20
		o := srv.Run(ctx, j)
		if o.Status != "oom" {
			t.Fatalf("status %q detail %q, want oom", o.Status, o.Detail)
		}
	})
}

func deref(p *int64) any {
	if p == nil {
		return "none"
	}
	return *p
}

// skipUnlessCI skips for a stated reason, and fails instead under CI=true,
// where every test must run.
func skipUnlessCI(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI=true: %s", why)
	}
	t.Skip(why)
}
