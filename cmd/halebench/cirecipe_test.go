package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// recipeArgs keep the recipe's run small (one bench, three languages, one
// sample): what is checked is the cache folder, not the figures.
const recipeArgs = " --lang=c,go,python --bench=fn_call --iters=1 --warmup=0 --confirm=0"

// The README's CI recipe, as its commands stand between the ci-recipe
// markers, run in halebench's own image against this engine: cold (an empty
// cache folder), then warm after the images the cold run used are removed
// from the engine — the warm run builds nothing and has the same digests.
func TestSlowCIRecipe(t *testing.T) {
	enginetest.Slow(t)
	eng := enginetest.Connect(t)
	lines := recipeLines(t)
	dir := t.TempDir()
	cold := runRecipe(t, lines, dir)
	for _, ref := range recipeImages(cold) {
		if err := eng.RemoveImage(context.Background(), ref); err != nil {
			t.Fatal(err)
		}
	}
	warm := runRecipe(t, lines, dir)
	for lang, tc := range warm.Images {
		if tc.Ref == "" {
			continue // unavailable in both (hale, with no hale input in the recipe)
		}
		bi := warm.BenchImages[lang]
		if tc.Executed+tc.Cached+bi.Executed+bi.Cached != 0 || tc.ID != cold.Images[lang].ID || bi.ID != cold.BenchImages[lang].ID {
			t.Errorf("%s: warm %s/%s after %d+%d steps, cold %s/%s", lang, tc.ID, bi.ID, tc.Executed+bi.Executed, tc.Cached+bi.Cached, cold.Images[lang].ID, cold.BenchImages[lang].ID)
		}
	}
	if warm.Base.ID != cold.Base.ID {
		t.Errorf("base: warm %s, cold %s", warm.Base.ID, cold.Base.ID)
	}
	// The recipe hands the job's key in: what the warm run restored is
	// vouched for by its signature, so it is trusted (and may run privileged).
	if p := warm.Base.Provenance; p == nil || p.Origin != "restored" || p.Checked != "hmac" || !p.Trusted {
		t.Errorf("base after a restore with the key: provenance %+v, want restored, hmac, trusted", p)
	}
}

// recipeCacheKey is the test's HALEBENCH_CACHE_KEY (a CI secret in the recipe).
const recipeCacheKey = "halebench-test-recipe-key-0123456789abcdef"

// recipeLines are the lines of the sh block between the README's markers.
func recipeLines(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "<!-- ci-recipe:begin -->")
	block, _, ok2 := strings.Cut(rest, "<!-- ci-recipe:end -->")
	_, sh, ok3 := strings.Cut(block, "```sh\n")
	sh, _, ok4 := strings.Cut(sh, "```")
	if !ok || !ok2 || !ok3 || !ok4 {
		t.Fatal("README.md has no ```sh block between <!-- ci-recipe:begin --> and <!-- ci-recipe:end -->")
	}
	return strings.Split(strings.TrimSpace(sh), "\n")
}

// runRecipe runs the lines in the module root with $PWD's folders moved into
// dir, and returns the report the run wrote. The run may exit 1 (a verdict on
// this busy host); anything else fails.
func runRecipe(t *testing.T, lines []string, dir string) *report.Report {
	t.Helper()
	script := strings.Join(lines, "\n")
	script = strings.ReplaceAll(script, `"$PWD/.halebench-cache`, `"`+filepath.Join(dir, "cache"))
	script = strings.ReplaceAll(script, `"$PWD/results`, `"`+filepath.Join(dir, "results"))
	script = strings.Replace(script, "halebench:latest run ", "halebench:latest run"+recipeArgs+" ", 1)
	start := time.Now()
	cmd := exec.Command("bash", "-c", "set -u\n"+strings.ReplaceAll(script, "\n", " || exit $?\n")+"\n")
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "HALEBENCH_CACHE_KEY="+recipeCacheKey)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		t.Fatalf("the recipe: %v\n%s", err, out)
	}
	t.Logf("the recipe took %s", time.Since(start).Round(time.Second))
	reports, _ := filepath.Glob(filepath.Join(dir, "results", "*.json"))
	if len(reports) == 0 {
		t.Fatalf("the recipe wrote no report:\n%s", out)
	}
	newest := reports[len(reports)-1]
	for _, p := range reports {
		if a, b := stat(p), stat(newest); a.After(b) {
			newest = p
		}
	}
	data, err := os.ReadFile(newest)
	if err != nil {
		t.Fatal(err)
	}
	var r report.Report
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatalf("%s: %v", newest, err)
	}
	return &r
}

func stat(p string) time.Time {
	st, err := os.Stat(p)
	if err != nil {
		return time.Time{}
	}
	return st.ModTime()
}

// recipeImages are the images a report names: its base, toolchains and
// bench images (all made by that run's halebench).
func recipeImages(r *report.Report) []string {
	refs := []string{r.Base.Ref}
	for lang, tc := range r.Images {
		refs = append(refs, tc.Ref, r.BenchImages[lang].Ref)
	}
	var out []string
	for _, ref := range refs {
		if ref != "" {
			out = append(out, ref)
		}
	}
	return out
}
