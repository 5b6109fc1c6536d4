package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// shardRecipeArgs make the recipe's run the check: the C stand-in,
// counted only, gated on its own baselines.
var shardRecipeArgs = []string{"--suite=../..", "--subject=c", "--lang=c", "--count=only", "--baselines=../../baselines-c.json", "--progress=plain"}

// The GitHub recipe's commands with N = 3 (docs/recipes/github-shards.yml),
// run on this engine one shard after another, and its merge, against an
// unsharded run of the same: the same benches once each, every count
// exactly equal, the same verdicts and exit code. The shards' halebench
// arguments are the recipe's (less --cache-dir: the cache folder is
// TestSlowCIRecipe's subject, and the C images' archives are gigabytes),
// each report goes where the recipe's mv, upload and download put it, and
// the merge's arguments are the recipe's with its mounts on this host. The
// docker run around them is the README's recipe's, run by TestSlowCIRecipe.
// Merging shard 1 twice, or 1 and 2 alone, exits 2.
func TestSlowShardRecipe(t *testing.T) {
	enginetest.Slow(t)
	enginetest.Connect(t)
	tmp := t.TempDir()
	p := githubPlan(t, tmp)
	whole, code0, wall0 := runRecipeShard(t, p.shards[0].ci(), without(p.shards[0].args, "--shard"), filepath.Join(tmp, "whole"))
	var shards []*report.Report
	var walls []time.Duration
	for k, c := range p.shards {
		r, _, wall := runRecipeShard(t, c.ci(), c.args, filepath.Join(tmp, "results", itoa(k+1)))
		shards, walls = append(shards, r), append(walls, wall)
		found, _ := filepath.Glob(filepath.Join(tmp, "results", itoa(k+1), "run-*.json"))
		if err := os.MkdirAll(filepath.Dir(p.reports[k]), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(found[0], p.reports[k]); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range p.mkdirs {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	args, outputs := mergeArgs(t, p.merge)
	// on the runner, in its environment (GitHub's CI=true)
	code, _, errOut := run(t, append([]string{"GITHUB_STEP_SUMMARY="}, without(p.env, "GITHUB_STEP_SUMMARY")...), args...)
	if code != code0 {
		t.Fatalf("the recipe's merge: exit %d, the unsharded run %d\n%s", code, code0, errOut)
	}
	var merged report.Report
	for _, f := range outputs {
		if strings.HasSuffix(f, ".json") {
			readReport(t, f, &merged)
		}
	}
	sameRun(t, whole, &merged)
	for _, bad := range [][]string{{p.reports[0], p.reports[0], p.reports[1], p.reports[2]}, {p.reports[0], p.reports[1]}} {
		code, _, errOut := run(t, nil, append([]string{"merge"}, bad...)...)
		if code != 2 || !strings.Contains(errOut, p.reports[0]) {
			t.Errorf("merge %v: exit %d, %q; want 2 naming %s", bad, code, errOut, p.reports[0])
		}
	}
	shardFigures(t, whole, wall0, shards, walls)
	compared := map[string]int{}
	for _, b := range whole.Benches {
		switch {
		case b.SubjectResult == nil:
			compared[string(b.Status)]++
		case b.SubjectResult.Count != nil && b.SubjectResult.Count.Verdict == outcome.CountUnstable:
			compared["count_unstable, counts not compared"]++
		default:
			compared["counts compared"]++
		}
	}
	t.Logf("benches: %v", compared)
}

// runRecipeShard runs a recipe's run arguments (verb first, less
// --cache-dir) with the test's, its report into dir, with env (CI as the
// recipe's container gets it): the report, the exit code (0 or 1 when the
// subject was measured, 3 naming why when not) and the wall time.
func runRecipeShard(t *testing.T, env, recipe []string, dir string) (*report.Report, int, time.Duration) {
	t.Helper()
	args := append(append(without(recipe, "--cache-dir"), shardRecipeArgs...), "--results="+dir)
	start := time.Now()
	code, _, errOut := run(t, env, args...)
	end := time.Now()
	if code != 0 && code != 1 && code != 3 {
		t.Fatalf("%v: exit %d\n%s", args, code, errOut)
	}
	// The wall time is the run's once it held the engine: waiting for
	// another process's run (the engine's lock) is not the shard's.
	_, at, _ := strings.Cut(errOut, "lock: run took the engine at ")
	at, _, _ = strings.Cut(at, "\n")
	took, err := time.Parse(time.RFC3339Nano, at)
	if err != nil {
		t.Fatalf("%v: no lock line on stderr (%v)\n%s", args, err, errOut)
	}
	wall := end.Sub(took)
	t.Logf("%v: waited %.1f s for the engine, then %.1f s", args, took.Sub(start).Seconds(), wall.Seconds())
	found, _ := filepath.Glob(filepath.Join(dir, "run-*.json"))
	if len(found) != 1 {
		t.Fatalf("%v wrote %v", args, found)
	}
	var r report.Report
	readReport(t, found[0], &r)
	if !unmeasuredInCI(t, &r, code, errOut) {
		t.Fatalf("%v: exit %d\n%s", args, code, errOut)
	}
	return &r, code, wall
}

// ci is the CI variable as the container gets it (a later entry than the
// test's own CI=false): the rest of its environment names files inside it.
func (c containerCmd) ci() []string {
	return []string{"CI=" + c.env["CI"]}
}

// without drops the flags named (--name=value) from args.
func without(args []string, names ...string) []string {
	var out []string
next:
	for _, a := range args {
		for _, n := range names {
			if a == n || strings.HasPrefix(a, n+"=") {
				continue next
			}
		}
		out = append(out, a)
	}
	return out
}

func readReport(t *testing.T, file string, r *report.Report) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, r); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
}

// shardFigures logs each shard's wall time, count cost and planned load
// beside the unsharded run's (measured here, for docs/measurements.md; a
// time is never asserted), and checks the plan itself: no shard's planned
// load over 0.45 of the whole, the bound on the balance.
func shardFigures(t *testing.T, whole *report.Report, wall0 time.Duration, shards []*report.Report, walls []time.Duration) {
	t.Helper()
	t.Logf("unsharded: %d benches, wall %.1f s, count cost %.1f s", len(whole.Benches), wall0.Seconds(), whole.Count.CostSeconds)
	var maxCost, maxWall float64
	for i, r := range shards {
		t.Logf("shard %d/3: %d benches, wall %.1f s, count cost %.1f s, planned load %d (%s)", i+1, len(r.Shard.Benches), walls[i].Seconds(), r.Count.CostSeconds, r.Shard.Loads[i], r.Shard.BalancedBy)
		maxCost, maxWall = max(maxCost, r.Count.CostSeconds), max(maxWall, walls[i].Seconds())
	}
	t.Logf("max shard ÷ unsharded: count cost %.3f, wall %.3f", maxCost/whole.Count.CostSeconds, maxWall/wall0.Seconds())
	var sum, top int64
	for _, l := range shards[0].Shard.Loads {
		sum, top = sum+l, max(top, l)
	}
	if sum == 0 || float64(top) > 0.45*float64(sum) {
		t.Errorf("planned loads %v: the largest is over 0.45 of the whole", shards[0].Shard.Loads)
	}
	t.Logf("planned: largest load ÷ whole %.3f", float64(top)/float64(sum))
}
