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
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// hostileServer starts a sampler container of a bench image holding the
// hostile benches of testdata/hostile and testdata/small.c, under the
// privilege the engine grants (or none).
func hostileServer(t *testing.T, unprivileged bool) (*runner.Server, runner.Job) {
	t.Helper()
	progs, _ := filepath.Glob("testdata/hostile/*.c")
	return startServer(t, "c", append(progs, "testdata/small.c"), unprivileged)
}

// startServer starts a sampler container of a lang bench image holding
// srcs; samplerArgs go to its `serve`.
func startServer(t *testing.T, lang string, srcs []string, unprivileged bool, samplerArgs ...string) (*runner.Server, runner.Job) {
	t.Helper()
	eng := enginetest.Connect(t)
	img, priv := enginetest.BenchImage(t, eng, lang, srcs...)
	if unprivileged {
		priv = engine.Privilege{Mode: engine.ModeUnprivileged}
	}
	info, err := eng.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	cpus, _, err := runner.PlanCPUs(info.LogicalCPUs, 1)
	if err != nil {
		t.Fatal(err)
	}
	runID := "test-hostile-" + time.Now().Format("150405.000")
	srv, err := runner.StartServer(context.Background(), eng, runner.ServerSpec{Image: img, CPUs: cpus, Privilege: priv,
		RunID: runID, MemLimit: 1 << 30, Lang: lang, SamplerArgs: samplerArgs})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.Close()
		enginetest.NoLeftovers(t, eng, runID)
	})
	l, _ := suite.ByName(lang)
	return srv, runner.Job{Lang: l, Iters: 1, Warmup: 0, Timeout: 20 * time.Second, Seed: 1, MemLimit: 1 << 30, OutCap: 1 << 20}
}

func checkFields(check string) map[string]string {
	m := map[string]string{}
	for _, kv := range strings.Split(check, ",") {
		k, v, _ := strings.Cut(kv, ":")
		m[k] = v
	}
	return m
}

// The bench runs unprivileged whatever the container got: a non-zero uid,
// no capability, and mount, proc mounts, PID 1's descriptors and new user
// namespaces are refused. The report says what both got.
func TestHostileBenchIsUnprivileged(t *testing.T) {
	for _, unpriv := range []bool{false, true} {
		name := "most privilege the engine grants"
		if unpriv {
			name = "unprivileged container"
		}
		t.Run(name, func(t *testing.T) {
			srv, j := hostileServer(t, unpriv)
			j.Unit = "privs"
			o := srv.Run(context.Background(), j)
			if o.Status != "ok" || len(o.Samples) != 1 {
				t.Fatalf("outcome %+v", o)
			}
			got := checkFields(o.Samples[0].Check)
			t.Logf("bench saw %s; env bench %+v container %+v errors %v", o.Samples[0].Check, o.Env.BenchPrivileges, o.Env.ContainerPrivileges, o.Env.ConfinementErrors)
			if got["uid"] == "0" || got["uid"] == "" {
				t.Errorf("bench uid %q, want non-zero", got["uid"])
			}
			if got["capeff"] != "0000000000000000" {
				t.Errorf("bench CapEff %q, want 0", got["capeff"])
			}
			// vsock and packet sockets, and a personality other than the
			// query and ADDR_NO_RANDOMIZE, are refused.
			for _, k := range []string{"remount", "mountproc", "pid1fd", "userns", "vsock", "packet", "persona"} {
				if got[k] == "0" || got[k] == "" {
					t.Errorf("%s: the bench got through (errno %q)", k, got[k])
				}
			}
			// What a bench may still do: an inet socket (loopback only),
			// the personality query and ADDR_NO_RANDOMIZE (which the
			// engine's own profile, on an unprivileged container, denies).
			allowed := []string{"inet", "pquery", "noaslr"}
			if unpriv {
				allowed = allowed[:2]
			}
			for _, k := range allowed {
				if got[k] != "0" {
					t.Errorf("%s: refused (errno %q), want allowed", k, got[k])
				}
			}
			if got["core"] != "0/0" {
				t.Errorf("RLIMIT_CORE %q, want 0/0: core dumps must be off", got["core"])
			}
			if got["home"] != "/run/halebench-home" {
				t.Errorf("HOME %q, want the empty read-only /run/halebench-home", got["home"])
			}
			bp := o.Env.BenchPrivileges
			if bp == nil || o.Env.ContainerPrivileges == nil {
				t.Fatalf("the report does not say what the bench and the container got: %+v", o.Env)
			}
			if bp.CapEff != "0000000000000000" || bp.CapBnd != "0000000000000000" || bp.CapAmb != "0000000000000000" ||
				bp.NoNewPrivs != "1" || bp.Seccomp != "2" || strings.HasPrefix(bp.UID, "0") || !strings.HasPrefix(bp.PID1FDs, "denied") {
				t.Errorf("bench privileges %+v", *bp)
			}
		})
	}
}

// A setsid'd child writing forged result lines to /proc/1/fd/1 with guessed
// job ids changes no later result, and the jobs end on their own.
func TestForgedResultsChangeNothing(t *testing.T) {
	srv, j := hostileServer(t, false)
	ctx := context.Background()
	j.Unit = "forger"
	if o := srv.Run(ctx, j); o.Status != "ok" || o.Samples[0].Check != "forger" {
		t.Fatalf("forger outcome %+v", o)
	}
	j.Unit, j.Iters = "small", 3
	for i := 0; i < 3; i++ {
		o := srv.Run(ctx, j)
		if o.Status != "ok" || len(o.Samples) != 3 {
			t.Fatalf("job %d after the forger: %+v", i, o)
		}
		for _, s := range o.Samples {
			if s.Fig(wire.ElapsedNs) == 42 || !strings.HasPrefix(s.Check, "acc:") {
				t.Fatalf("job %d after the forger took a forged sample: %+v", i, s)
			}
		}
	}
	if err := srv.Dead(); err != nil {
		t.Fatalf("the server died: %v", err)
	}
}

// A setsid'd child holding stdout ends as timeout within --timeout + 5 s,
// and nothing of it (no process, no zombie) is left for the next sample.
func TestSetsidChildEndsAsTimeout(t *testing.T) {
	srv, j := hostileServer(t, false)
	ctx := context.Background()
	j.Unit, j.Timeout = "holder", 3*time.Second
	o := srv.Run(ctx, j)
	if o.Status != "timeout" {
		t.Fatalf("holder outcome %+v", o)
	}
	if limit := j.Timeout + 5*time.Second; time.Duration(o.JobNs) > limit {
		t.Fatalf("the holder's job took %s, over %s", time.Duration(o.JobNs), limit)
	}
	j.Unit, j.Timeout = "survivors", 20*time.Second
	o = srv.Run(ctx, j)
	if o.Status != "ok" || o.Samples[0].Check != "others:0" {
		t.Fatalf("after the holder: %+v", o)
	}
}

// A fork bomb ends as timeout on its own, and the next job runs with
// nothing of it left (in this container or, if it could not be emptied, in
// a fresh one the next Run asks for).
func TestForkBombEndsAsTimeout(t *testing.T) {
	srv, j := hostileServer(t, false)
	ctx := context.Background()
	j.Unit, j.Timeout = "forkbomb", 3*time.Second
	o := srv.Run(ctx, j)
	t.Logf("fork bomb: %s %s in %s", o.Status, o.Detail, time.Duration(o.JobNs))
	if o.Status != "timeout" {
		t.Fatalf("fork bomb outcome %+v", o)
	}
	// Not timeout + 5 s: the bomb's thousands of runnable processes share
	// the sampler's CPU and slow its clean-up (5.5 s on a quiet host, 26 s
	// on a loaded one). It must end on its own, before the runner's
	// deadline would give the container up.
	if limit := runner.JobDeadline(j); time.Duration(o.JobNs) > limit {
		t.Fatalf("the fork bomb's job took %s, over the job deadline %s", time.Duration(o.JobNs), limit)
	}
	if srv.Dead() != nil {
		t.Logf("the container was spent: %v", srv.Dead())
		return
	}
	j.Unit, j.Timeout = "survivors", 20*time.Second
	o = srv.Run(ctx, j)
	if o.Status != "ok" || o.Samples[0].Check != "others:0" {
		t.Fatalf("after the fork bomb: %+v", o)
	}
}
