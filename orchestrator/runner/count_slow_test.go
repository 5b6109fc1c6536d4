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
)

// The whole C suite counted twice per bench: every region count is the same
// on both runs, and every count either is one or says why it failed. The log
// is the figures the README's claims rest on: per bench the scope, both
// counts, and the wall time of a counted run beside a timed one.
func TestSlowCountCSuite(t *testing.T) {
	enginetest.Slow(t)
	eng := enginetest.Connect(t)
	var progs []string
	for _, dir := range []string{"micro", "app", "guards"} {
		m, _ := filepath.Glob(filepath.Join("..", "..", "benches", dir, "*.c"))
		progs = append(progs, m...)
	}
	img, priv := enginetest.BenchImage(t, eng, "c", progs...)
	info, _ := eng.Info(context.Background())
	cpus, _, _ := runner.PlanCPUs(info.LogicalCPUs, 1)
	runID := "test-count-suite-" + time.Now().Format("150405.000")
	srv, err := runner.StartServer(context.Background(), eng,
		runner.ServerSpec{Image: img, CPUs: cpus, Privilege: priv, RunID: runID, MemLimit: 2 << 30, Lang: "c"})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := srv.Close(); err != nil {
			t.Error(err)
		}
		enginetest.NoLeftovers(t, eng, runID)
	}()
	c := toolchainC(t)
	for _, p := range progs {
		unit := strings.TrimSuffix(filepath.Base(p), ".c")
		cj, _ := runner.CountJobFor(c, unit, 2, 0)
		o := srv.Run(context.Background(), runner.Job{Unit: unit, Lang: c, Iters: 1, Warmup: 0,
			Timeout: 2 * time.Minute, Seed: 3, MemLimit: 2 << 30, OutCap: 1 << 20, Count: &cj})
		if o.Status != "ok" {
			t.Logf("%-40s timed sample %s (%s): not counted", unit, o.Status, o.Detail)
			continue
		}
		if len(o.Counts) != 2 {
			t.Errorf("%s: %d counts, want 2", unit, len(o.Counts))
			continue
		}
		a, b := o.Counts[0], o.Counts[1]
		t.Logf("%-40s %-7s %-12s Ir %d / %d  est %d / %d  counted %.2fs timed %.2fs %s", unit, a.Scope, a.Status,
			a.Ir, b.Ir, a.EstCycles, b.EstCycles, float64(a.WallNs)/1e9, float64(o.Samples[0].Fig(wire.WallNs))/1e9, a.Detail)
		for _, x := range o.Counts {
			if x.Status == wire.CountFailed && x.Detail == "" {
				t.Errorf("%s: count_failed without a reason", unit)
			}
		}
		if a.Status == wire.CountOK && a.Scope == wire.ScopeRegion && (b.Ir != a.Ir || b.Scope != a.Scope) {
			t.Errorf("%s: region counts differ: %d and %d", unit, a.Ir, b.Ir)
		}
	}
}
