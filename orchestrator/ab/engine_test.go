package ab_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/ab"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// suite writes a suite folder: benches/catalogue.json listing the files'
// stems, and each file under benches/micro.
func suite(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	micro := filepath.Join(dir, "benches", "micro")
	if err := os.MkdirAll(micro, 0o755); err != nil {
		t.Fatal(err)
	}
	var names []string
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(micro, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, `"`+strings.TrimSuffix(name, ".c")+`"`)
	}
	cat := `{"categories": [{"name": "micro", "title": "Micro", "benches": [` + strings.Join(names, ", ") + `]}], "benches": {}}`
	if err := os.WriteFile(filepath.Join(dir, "benches", "catalogue.json"), []byte(cat), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// repoBench is one of the suite's C programs, its trip count optionally
// scaled by replacing old with new.
func repoBench(t *testing.T, name, old, new string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", "benches", "micro", name+".c"))
	if err != nil {
		t.Fatal(err)
	}
	if old != "" && !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s has no %q", name, old)
	}
	return strings.Replace(string(data), old, new, 1)
}

// compare runs an ab of suites a and b in C; sh, when given, is its shard.
func compare(t *testing.T, a, b string, set ab.Settings, sh ...plan.Spec) *ab.Result {
	t.Helper()
	eng := enginetest.Connect(t)
	var log bytes.Buffer
	if set.Threshold == 0 {
		set.Threshold = 0.02 // the CLI's default: Prepare takes no 0 for it
	}
	o := ab.Options{A: ab.SideSpec{Suite: a, What: "A " + a}, B: ab.SideSpec{Suite: b, What: "B " + b}, Subject: "c",
		Settings: set, Timeout: time.Minute, MemLimit: 1 << 30, OutCap: 1 << 20, Log: &log}
	if len(sh) > 0 {
		o.Shard = sh[0]
	}
	p, err := ab.Prepare(o)
	if err != nil {
		t.Fatal(err)
	}
	res, err := ab.OnEngine(context.Background(), eng, p)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	return res
}

// A small A/B on the engine: both sides sampled round by round, a bench B
// lacks and a bench that does not compile in B are missing (and say why)
// while the others go on. It runs as shard 1 of 1: the whole partition,
// named in the result.
func TestABOnEngine(t *testing.T) {
	fm := repoBench(t, "fn_modular", "", "")
	a := suite(t, map[string]string{"fn_modular.c": fm, "broken_in_b.c": repoBench(t, "fn_call", "", ""), "gone_in_b.c": repoBench(t, "loop_overhead", "", "")})
	b := suite(t, map[string]string{"fn_modular.c": repoBench(t, "fn_modular", "#define ITERS 10000000LL", "#define ITERS 11000000LL"), "broken_in_b.c": "int main(void) { return nope; }\n"})
	res := compare(t, a, b, ab.Settings{MinRounds: 6, MaxRounds: 8, Seed: 5}, plan.Spec{K: 1, N: 1, From: "--shard"})
	if sh := res.Shard; sh == nil || sh.Index != 1 || sh.Total != 1 || len(sh.Benches) != 3 || sh.Digest == "" || sh.SuiteSourcesDigest == "" {
		t.Errorf("shard field: %+v", res.Shard)
	}
	got := map[string]ab.Bench{}
	for _, bn := range res.Benches {
		got[bn.Name] = bn
	}
	if fmb := got["fn_modular"]; fmb.Rounds < 6 || fmb.MedianA <= 0 || fmb.MedianB <= fmb.MedianA || len(fmb.SamplesA) != fmb.Rounds || fmb.Verdict == outcome.Missing || fmb.Verdict == outcome.Faster {
		t.Errorf("fn_modular: %+v", fmb)
	}
	if g := got["gone_in_b"]; g.Verdict != outcome.Missing || !strings.Contains(g.Detail, "B: no such bench") {
		t.Errorf("gone_in_b: %s %q", g.Verdict, g.Detail)
	}
	if br := got["broken_in_b"]; br.Verdict != outcome.Missing || !strings.Contains(br.Detail, "B: build_failed") {
		t.Errorf("broken_in_b: %s %q", br.Verdict, br.Detail)
	}
	if res.Seed != 5 {
		t.Errorf("seed %d", res.Seed)
	}
	checkEvidence(t, res)
}

// checkEvidence: the result's JSON names its schema and carries a run
// report's evidence — the host, the privilege granted, each side's images
// with their digests and provenance.
func checkEvidence(t *testing.T, res *ab.Result) {
	t.Helper()
	var js bytes.Buffer
	if err := report.JSON(&js, res); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Schema string `json:"schema"`
		RunID  string `json:"run_id"`
		Host   struct {
			LogicalCPUs int `json:"logical_cpus"`
			Privilege   struct {
				Mode string `json:"mode"`
			} `json:"privilege"`
			MemPeakSource string `json:"mem_peak_source"`
		} `json:"host"`
		Sides []struct {
			Name        string `json:"name"`
			What        string `json:"what"`
			Images      map[string]struct{ Digest string }
			BenchImages map[string]struct {
				ID         string `json:"id"`
				Provenance *struct {
					Origin string `json:"origin"`
				} `json:"provenance"`
			} `json:"bench_images"`
		} `json:"sides"`
	}
	if err := json.Unmarshal(js.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Schema != report.ABSchema || got.RunID == "" || got.Host.LogicalCPUs < 1 || got.Host.Privilege.Mode == "" || got.Host.MemPeakSource == "" {
		t.Errorf("schema %q, run id %q, host %+v", got.Schema, got.RunID, got.Host)
	}
	if len(got.Sides) != 2 || got.Sides[0].Name != "A" || got.Sides[1].Name != "B" {
		t.Fatalf("sides: %+v", got.Sides)
	}
	for _, sd := range got.Sides {
		bi := sd.BenchImages["c"]
		if !strings.HasPrefix(sd.What, sd.Name+" ") || sd.Images["c"].Digest == "" || bi.ID == "" || bi.Provenance == nil || bi.Provenance.Origin == "" {
			t.Errorf("side %s: %q, toolchain digest %q, bench image %+v", sd.Name, sd.What, sd.Images["c"].Digest, bi)
		}
	}
}

// The suite's own check: an A/A flags nothing, and fn_modular 10 % slower
// in its timed loop is slower with its interval holding 1.10, the other
// benches not flagged.
//
// A flag on an unchanged bench is an event the verdict's level allows (at
// most 5 % of compares, split over its benches and looks), and a busy host
// makes it likelier; one CI run saw form_vec_push at 1.029 [1.003, 1.061]
// with its instructions exactly equal. So a flagged unchanged bench is
// compared again, alone, A against A with a new seed, and the test fails
// only when that independent compare flags it too (at most 0.25 % when
// the level holds).
func TestSlowABKnownEffects(t *testing.T) {
	enginetest.Slow(t)
	files := map[string]string{}
	for _, n := range []string{"fn_modular", "fn_call", "loop_overhead", "form_vec_push"} {
		files[n+".c"] = repoBench(t, n, "", "")
	}
	a := suite(t, files)
	aa := compare(t, a, suite(t, files), ab.Settings{})
	for _, bn := range aa.Benches {
		logBench(t, "A/A", bn)
		if bn.Verdict == outcome.Slower || bn.Verdict == outcome.Faster {
			againAA(t, "A/A", bn, files[bn.Name+".c"])
		}
	}
	// fn_modular 5 % and 10 % longer in its timed region: slower, the
	// interval holding the true ratio (the exact instruction ratio where
	// the count lane counted, the trip counts' ratio otherwise).
	for _, v := range []struct {
		what, iters string
		nominal     float64
	}{{"+5 %", "10500000LL", 1.05}, {"+10 %", "11000000LL", 1.10}} {
		files["fn_modular.c"] = repoBench(t, "fn_modular", "#define ITERS 10000000LL", "#define ITERS "+v.iters)
		res := compare(t, a, suite(t, files), ab.Settings{})
		for _, bn := range res.Benches {
			logBench(t, v.what, bn)
			truth := v.nominal
			if bn.InstrRatio > 0 {
				truth = bn.InstrRatio
			}
			switch {
			case bn.Name == "fn_modular" && (bn.Verdict != outcome.Slower || bn.RatioLow > truth || bn.RatioHigh < truth):
				t.Errorf("fn_modular %s: %s %.3f [%.3f, %.3f], true ratio %.4f", v.what, bn.Verdict, bn.Ratio, bn.RatioLow, bn.RatioHigh, truth)
			case bn.Name != "fn_modular" && (bn.Verdict == outcome.Slower || bn.Verdict == outcome.Faster):
				againAA(t, v.what, bn, files[bn.Name+".c"])
			}
		}
	}
}

// againAA compares an unchanged bench that was flagged once, alone, A
// against A with another seed; a second flag fails the test.
func againAA(t *testing.T, what string, first ab.Bench, src string) {
	t.Helper()
	t.Logf("%s: %s flagged %s (%.3f [%.3f, %.3f]) though unchanged; comparing it again, A against A", what, first.Name, first.Verdict, first.Ratio, first.RatioLow, first.RatioHigh)
	one := map[string]string{first.Name + ".c": src}
	res := compare(t, suite(t, one), suite(t, one), ab.Settings{Seed: 977})
	for _, bn := range res.Benches {
		logBench(t, what+" again", bn)
		if bn.Verdict == outcome.Slower || bn.Verdict == outcome.Faster {
			t.Errorf("%s: %s flagged %s twice: %.3f [%.3f, %.3f], then %.3f [%.3f, %.3f]", what, bn.Name, bn.Verdict, first.Ratio, first.RatioLow, first.RatioHigh, bn.Ratio, bn.RatioLow, bn.RatioHigh)
		}
	}
}

// logBench says one bench's comparison (go test -v shows it: the figures
// the README's measurements come from).
func logBench(t *testing.T, what string, bn ab.Bench) {
	t.Helper()
	t.Logf("%s: %-14s %-10s ×%.4f [%.4f, %.4f] instructions ×%.4f, %d rounds", what, bn.Name, bn.Verdict, bn.Ratio, bn.RatioLow, bn.RatioHigh, bn.InstrRatio, bn.Rounds)
}
