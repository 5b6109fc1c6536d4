package harness_test

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/harness"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/stamp"
)

// poolEngine samples on the runner's own pool of sampler containers over
// a driver, as session.Sampling does on a session's.
type poolEngine struct {
	pool    *runner.Pool
	priv    engine.Privilege
	refused []engine.Attempt
}

func (p *poolEngine) Privilege() (engine.Privilege, []engine.Attempt) { return p.priv, p.refused }
func (p *poolEngine) Sample(ctx context.Context, w runner.Where, j runner.Job) runner.Outcome {
	return p.pool.Sample(ctx, w, j)
}
func (p *poolEngine) SamplePair(ctx context.Context, w runner.PairWhere, reader, producer runner.Job) (runner.Outcome, *runner.Outcome) {
	return p.pool.SamplePair(ctx, w, reader, producer)
}
func (p *poolEngine) CloseSamplers() []runner.Started {
	p.pool.Close()
	return p.pool.Started()
}

// A whole plan runs on the fake driver, chosen by name from the registry:
// the harness's real executor sends every (bench, language) to the
// runner's pool, which starts one sampler container per language and
// cpuset on the driver and speaks the sampler's wire protocol to it (jobs
// with ids and nonces on stdin, result lines back); what the fake sampler
// measured is what the report says, and no container is left at the end.
func TestAPlanRunsOnTheFakeDriver(t *testing.T) {
	ctx := context.Background()
	drv, err := engine.Open(ctx, "fake")
	if err != nil {
		t.Fatal(err)
	}
	fake := drv.(*enginetest.Engine)
	elapsed := map[string]int64{"c": 1_000_000, "go": 3_000_000, "python": 500_000}
	fake.Sampler = func(s engine.Spec, j wire.Job) wire.Result {
		res := enginetest.Steady(s, j)
		for i := range res.Samples {
			res.Samples[i].Set(wire.ElapsedNs, elapsed[s.Labels["org.halebench.lang"]])
		}
		return res
	}
	images := fakeImages{}
	for _, ref := range []string{"fake/go", "fake/bench-c", "fake/bench-go", "fake/bench-python"} {
		fake.Add(ref, nil, 0)
	}
	host, err := drv.Info(ctx)
	if err != nil {
		t.Fatal(err)
	}
	o := fakeOptions(t, "c,go,python", "c", "count,spin")
	const runID = "fake-driver-run"
	env := harness.Env{RunID: runID, Host: host, Images: images, Ready: func(ctx context.Context) (harness.Engine, error) {
		tc, _ := images.SamplerToolchain(ctx)
		priv, refused, err := drv.ProbePrivilege(ctx, tc.Ref, runID, false)
		return &poolEngine{pool: runner.NewPool(drv, priv, runID, o.MemLimit, io.Discard), priv: priv, refused: refused}, err
	}}
	res, err := runFake(t, ctx, env, o)
	if err != nil {
		t.Fatal(err)
	}
	r := res.Report
	if r.Status != outcome.OK || r.Host.CPUModel != "Fake CPU" || r.Host.Privilege.Mode != engine.ModePrivileged {
		t.Fatalf("report status %q, host %+v", r.Status, r.Host)
	}
	if r.Halebench == nil || *r.Halebench != *stamp.This() {
		t.Fatalf("the report names halebench %v; want this one, %v", r.Halebench, stamp.This())
	}
	count := bench(r, "count")
	if *count.ElapsedNsMedian != 1_000_000 || len(count.ElapsedNsSamples) != o.Iters || count.Parity != "ok" || *count.Comparatives["go"].RatioVsSubject != 3 {
		t.Fatalf("count: %+v", count)
	}
	if spin := bench(r, "spin"); *spin.ElapsedNsMedian != 1_000_000 || len(spin.Comparatives) != 0 {
		t.Fatalf("spin: %+v", spin)
	}
	checkFigures(t, res.ReportPath, count)
	checkFakeWire(t, fake, o.Iters, o.Warmup)
	if left, _ := drv.Leftovers(ctx, runID); len(left) != 0 {
		t.Fatalf("containers of the run left: %v", left)
	}
}

// checkFigures checks that every figure the wire declares reaches the
// stored report: a key of every sample in its JSON (CPU time among them:
// the fake sampler gives each declared figure, cpu_ns 0.9 ms), and every
// sampled metric of the registry reads a median from the subject's cell,
// CPU time's under the language's metrics too.
func checkFigures(t *testing.T, path string, b *report.Bench) {
	t.Helper()
	var doc struct {
		Benches []struct {
			Name    string `json:"name"`
			Subject struct {
				Samples []map[string]any `json:"samples"`
				Metrics map[string]int64 `json:"metrics"`
			} `json:"subject_result"`
		} `json:"benches"`
	}
	raw, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(raw, &doc) != nil || len(doc.Benches) == 0 {
		t.Fatalf("report %s: %v", path, err)
	}
	for _, jb := range doc.Benches {
		for i, s := range jb.Subject.Samples {
			for _, f := range wire.Declared {
				if _, ok := s[f.Name]; !ok {
					t.Errorf("%s sample %d has no %s: %v", jb.Name, i, f.Name, s)
				}
			}
		}
	}
	if s := doc.Benches[0].Subject.Samples; len(s) == 0 || s[0][wire.CPUNs] != float64(900_000) || doc.Benches[0].Subject.Metrics["cpu"] != 900_000 {
		t.Errorf("cpu per sample and its median: %v, %v", s, doc.Benches[0].Subject.Metrics)
	}
	for _, m := range judge.All() {
		if m.Sampled() && m.Read(b.SubjectResult.Cell()).Median <= 0 {
			t.Errorf("metric %s reads no median from the subject's cell", m.Name)
		}
	}
}

// checkFakeWire checks what the fake's samplers read off the wire: every
// job carries an id, a nonce and its program; each (bench, language) got
// iters samples after warmup warm-ups; each sampler container was made to
// serve on stdin, pinned, labelled with its language.
func checkFakeWire(t *testing.T, fake *enginetest.Engine, iters, warmup int) {
	t.Helper()
	got := map[string][2]int{}
	for _, j := range fake.Jobs {
		w := j.Wire
		if w.ID == "" || len(w.Nonce) != 32 || len(w.Argv) == 0 || j.Spec.Labels["org.halebench.lang"] == "" {
			t.Fatalf("job %+v", j)
		}
		key := strings.TrimSuffix(path.Base(w.BuildFailed), ".build_failed") + "/" + j.Spec.Labels["org.halebench.lang"]
		n := got[key]
		got[key] = [2]int{n[0] + w.Iters, n[1] + w.Warmup}
	}
	want := []string{"count/c", "count/go", "count/python", "spin/c"}
	if len(got) != len(want) {
		t.Fatalf("jobs for %v, want %v", got, want)
	}
	for _, k := range want {
		if got[k] != [2]int{iters, warmup} {
			t.Errorf("%s: %d samples after %d warm-ups, want %d after %d", k, got[k][0], got[k][1], iters, warmup)
		}
	}
	for _, s := range fake.Created {
		if !s.Stdin || s.CPUs == "" || !strings.Contains(strings.Join(s.Cmd, " "), "serve") || s.Labels["org.halebench.role"] != "sampler" {
			t.Errorf("sampler container %+v", s)
		}
	}
	if len(fake.Created) != 3 {
		t.Errorf("%d sampler containers made, want one per language (3)", len(fake.Created))
	}
}
