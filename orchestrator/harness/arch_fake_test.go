package harness_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/harness"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/session"
)

const emulatedWhy = "the images are arm64 and the engine's host x86_64: their programs ran under a test's emulator"

// An emulated run's times never gate: against an arm64 baseline its
// samples would be a regression (the file says 1 ns), and yet the bench
// is emulated, the run exits 0, and the report and the grid say why.
func TestFakeEmulatedTimesNeverGate(t *testing.T) {
	o := fakeOptions(t, "c", "c", "count")
	o.GateAnyMachine = true // even asked to gate across machines
	os.WriteFile(o.Baselines, []byte(`{"updated_at": "2026-01-01T00:00:00Z", "subject": "c", "arch": "arm64", "benches": {"count": {"kind": "micro", "elapsed_ns": 1, "maxrss_kb": 1, "tolerance": 0.3}}}`), 0o644)
	eng := &fakeEngine{elapsed: map[string]int64{"c": 5000}, check: map[string]string{"c": "n:1"}}
	env := fakeEnv(fakeImages{}, eng, 2)
	env.Platform = session.Platform{Arch: "arm64", Emulated: emulatedWhy}
	res, err := runFake(t, context.Background(), env, o)
	if err != nil {
		t.Fatalf("an emulated run failed the gate: %v", err)
	}
	b := bench(res.Report, "count")
	if b.Status != outcome.Emulated || !strings.Contains(b.SubjectResult.Detail, "emulated") {
		t.Fatalf("bench %s (%s), want emulated", b.Status, b.SubjectResult.Detail)
	}
	if h := res.Report.Host; h.ImageArch != "arm64" || h.Emulated != emulatedWhy {
		t.Fatalf("host image_arch %q emulated %q", h.ImageArch, h.Emulated)
	}
	if g := grid(t, res); !strings.Contains(g, "emulated") {
		t.Fatalf("the grid does not say emulated:\n%s", g)
	}
	// And it records no times: they are not measurements.
	o.UpdateBaselines = true
	p, err := harness.Prepare(o)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := harness.Run(context.Background(), env, p); err == nil || !strings.Contains(err.Error(), "--count=only") {
		t.Fatalf("an emulated --update-baselines recorded times: %v", err)
	}
}

// A baselines file recorded on one architecture gates no run of another,
// either way, saying so; and is not overwritten by one.
func TestFakeBaselinesKeyedByArch(t *testing.T) {
	for _, c := range []struct{ file, run string }{{"amd64", "arm64"}, {"arm64", "amd64"}} {
		t.Run(c.file+" file, "+c.run+" run", func(t *testing.T) {
			o := fakeOptions(t, "c", "c", "count")
			o.GateAnyMachine = true
			arch := ""
			if c.file == "arm64" {
				arch = `"arch": "arm64", `
			}
			os.WriteFile(o.Baselines, []byte(`{"updated_at": "2026-01-01T00:00:00Z", "subject": "c", `+arch+`"benches": {"count": {"kind": "micro", "elapsed_ns": 1, "maxrss_kb": 1, "tolerance": 0.3}}}`), 0o644)
			eng := &fakeEngine{elapsed: map[string]int64{"c": 5000}, check: map[string]string{"c": "n:1"}}
			env := fakeEnv(fakeImages{}, eng, 2)
			env.Platform = session.Platform{Arch: c.run} // natively: only the architecture differs
			res, err := runFake(t, context.Background(), env, o)
			if err != nil {
				t.Fatalf("a %s file gated a %s run: %v", c.file, c.run, err)
			}
			b := bench(res.Report, "count")
			if b.Status != outcome.NoBaseline || b.SubjectResult.Detail != "no_baseline (recorded on "+c.file+")" {
				t.Fatalf("bench %s (%q), want no_baseline (recorded on %s)", b.Status, b.SubjectResult.Detail, c.file)
			}
			o.UpdateBaselines = true
			p, err := harness.Prepare(o)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := harness.Run(context.Background(), env, p); err == nil || !strings.Contains(err.Error(), "recorded on "+c.file) {
				t.Fatalf("a %s run rewrote a %s file: %v", c.run, c.file, err)
			}
		})
	}
}

func grid(t *testing.T, res *harness.Result) string {
	t.Helper()
	var b strings.Builder
	report.Grid(&b, res.Report)
	return b.String()
}
