package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"gopkg.in/yaml.v3"
)

// recipeArgs keep the recipe's run small (one bench, one language, one
// sample): what is checked is the recipe and its cache folder, not the
// figures. Python, not the subject: hale is not built.
const recipeArgs = " --lang=python --bench=fn_call --iters=1 --warmup=0 --confirm=0"

// The README's GitHub Actions job, its steps played as its runner would
// (ghJob): their run: lines, parsed from the README's YAML, in bash as a
// user the test makes, in the docker group, not root, without sudo. Cold
// (an empty cache store), then warm from the folder the cold job saved,
// after the images the cold job made are removed from the engine: the warm
// run builds nothing and has the same digests. Images that were on this
// engine before the test, or in use by another's container (a shared
// engine), are left there; the test says which, and checks less of them.
func TestSlowCIRecipe(t *testing.T) {
	enginetest.Slow(t)
	eng := enginetest.Connect(t)
	steps, _ := readmeGitHubJob(t)
	r := newRunner(t)
	before := engineRefs(t)
	tag := "halebench-recipe-test:" + r.name
	var made []string
	t.Cleanup(func() {
		for _, ref := range append(made, tag) {
			_ = eng.RemoveImage(context.Background(), ref)
		}
	})
	caches := map[string]string{}
	start := time.Now()
	coldJob, cold := playRecipe(t, r, steps, tag, caches, "cold")
	made = append(made, madeBy(coldJob, before)...)
	for _, ref := range recipeImages(cold) {
		if before[ref] {
			t.Logf("%s was on the engine before the test: left there, so the warm job finds it", ref)
			continue
		}
		if err := eng.RemoveImage(context.Background(), ref); err != nil {
			if !strings.Contains(err.Error(), "conflict") {
				t.Fatal(err)
			}
			// Made meanwhile by another's run on a shared engine, or also theirs.
			t.Logf("%s is in use by another's container: left there (%v)", ref, err)
			before[ref] = true
			continue
		}
		made = append(made, ref)
	}
	warmJob, warm := playRecipe(t, r, steps, tag, caches, "warm")
	t.Logf("cold and warm jobs: %s", time.Since(start).Round(time.Second))
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
	// The job hands the key in (a push on a protected branch): what the warm
	// run restored is vouched for by its signature, so it is trusted.
	// make image runs after the restore, so the base may be restored there
	// (own-image --cache-dir, with the key file) and found by the run.
	restoredByImage := false
	for _, run := range warmJob.runs {
		restoredByImage = restoredByImage || (strings.Contains(run.line, "make image") && strings.Contains(run.out, "base: restored "+warm.Base.Ref))
	}
	p := warm.Base.Provenance
	switch {
	case before[warm.Base.Ref]:
	case restoredByImage && (p == nil || !p.Trusted):
		t.Errorf("base restored by make image, then provenance %+v; want trusted", p)
	case !restoredByImage && (p == nil || p.Origin != "restored" || p.Checked != "hmac" || !p.Trusted):
		t.Errorf("base after a restore with the key: provenance %+v, want restored, hmac, trusted", p)
	}
}

// recipeCacheKey is the test's HALEBENCH_CACHE_KEY (a CI secret in the recipe).
const recipeCacheKey = "halebench-test-recipe-key-0123456789abcdef"

// playRecipe plays the job in a fresh workspace named name, in CI (the
// runner's CI=true, which the recipe's docker run passes on): every run:
// step must pass but halebench's run, which may exit 1 (a verdict on this
// busy host) when its subject was measured, and must exit 3, saying why,
// when it was not (hale is not to be had here). It returns the job and the
// report the run wrote.
func playRecipe(t *testing.T, r *runner, steps []ghStep, tag string, caches map[string]string, name string) (*ghJob, *report.Report) {
	t.Helper()
	j := &ghJob{r: r, work: filepath.Join(r.home, name), files: filepath.Join(r.home, name+"-runner"), tag: tag, caches: caches}
	start := time.Now()
	j.play(t, steps)
	t.Logf("the %s job took %s", name, time.Since(start).Round(time.Second))
	reports, _ := filepath.Glob(filepath.Join(j.work, "results", "run-*.json"))
	if len(reports) != 1 {
		t.Fatalf("the %s job left %d reports in results/; want one", name, len(reports))
	}
	var rep report.Report
	readReport(t, reports[0], &rep)
	for _, run := range j.runs {
		ok := run.code == 0
		if strings.Contains(run.line, runImage) {
			ok = unmeasuredInCI(t, &rep, run.code, run.out)
		}
		if !ok {
			t.Fatalf("the %s job's step %q: exit %d\n%s", name, run.line, run.code, run.out)
		}
		t.Logf("%s: exit %d in %.1f s: %s", name, run.code, run.took.Seconds(), run.line)
	}
	r.removable(t, name, j.work, j.files)
	return j, &rep
}

// unmeasuredInCI says whether a run in CI that wrote rep ended as it
// must: 0 or 1 (the gate's verdict) when its subject was measured; 3,
// naming the subject and why on stderr (out), when it was not.
func unmeasuredInCI(t *testing.T, rep *report.Report, code int, out string) bool {
	t.Helper()
	if rep.SubjectStatus == string(outcome.Available) {
		return code == 0 || code == 1
	}
	why := "halebench: " + rep.Subject + ": " + rep.SubjectStatus + " ("
	if code != 3 || !strings.Contains(out, why) || !strings.Contains(out, "in CI (CI=true)") {
		t.Errorf("in CI, a run whose subject %s was %s: exit %d; want 3 and %q on stderr", rep.Subject, rep.SubjectStatus, code, why)
		return false
	}
	t.Logf("in CI, the subject %s %s: exit 3, saying why", rep.Subject, rep.SubjectStatus)
	return true
}

// engineRefs are the engine's image references now.
func engineRefs(t *testing.T) map[string]bool {
	t.Helper()
	out, err := exec.Command("docker", "image", "ls", "--format", "{{.Repository}}:{{.Tag}}").Output()
	if err != nil {
		t.Fatal(err)
	}
	refs := map[string]bool{}
	for _, l := range strings.Fields(string(out)) {
		refs[l] = true
	}
	return refs
}

// madeBy are the bases a job's make image made (own-image says so) that
// were not on the engine before.
func madeBy(j *ghJob, before map[string]bool) []string {
	var out []string
	for _, run := range j.runs {
		for _, m := range baseMade.FindAllStringSubmatch(run.out, -1) {
			if !before[m[1]] {
				out = append(out, m[1])
			}
		}
	}
	return out
}

var baseMade = regexp.MustCompile(`base: (\S+) made in`)

// The README's GitHub job, read as TestSlowCIRecipe plays it: the key for
// pushes on protected branches only, the cache saved whatever the run's
// verdict, every if: one the test's runner evaluates.
func TestReadmeGitHubRecipe(t *testing.T) {
	steps, job := readmeGitHubJob(t)
	cacheKeyGate(t, step(t, job, keyWrite))
	cacheSplit(t, job)
	text := readmeGitHubYAML(t)
	var doc map[string]any
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	githubHardened(t, doc, job, text)
	line, _ := step(t, job, runImage)["run"].(string)
	c := dockerRun(t, words(t, line, t.TempDir(), nil), ciJob)
	asRunner(t, line, c)
	seesCI(t, "the run step", c)
	keyFile(t, c, runnerTemp+"/halebench-cache-key")
	j := &ghJob{outputs: map[string]map[string]string{}}
	for _, s := range steps {
		j.cond(t, s.If)
	}
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

// The README's GitLab job, read as its shell runner runs it: halebench's
// image as the runner's user, the key as a read-only file, and CI passed on
// (a run that could not measure its subject fails the job).
func TestReadmeGitLabRecipe(t *testing.T) {
	text := readmeGitHubYAML(t) // the first block; GitLab's is the next
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(data), text)
	_, y, ok := strings.Cut(rest, "```yaml\n")
	y, _, ok2 := strings.Cut(y, "```")
	if !ok || !ok2 || strings.Index(rest, "<!-- ci-recipe:end -->") < strings.Index(rest, y) {
		t.Fatal("README.md has no second ```yaml block (GitLab's) before <!-- ci-recipe:end -->")
	}
	var doc map[string]any
	if err := yaml.Unmarshal([]byte(y), &doc); err != nil {
		t.Fatalf("the README's GitLab job: %v", err)
	}
	job, _ := doc["halebench"].(map[string]any)
	if job == nil {
		t.Fatal("the README's GitLab recipe has no job named halebench")
	}
	gitlabHardened(t, job, y)
	env := merged(ciJob, map[string]string{"CI_JOB_ID": "41"})
	line := scriptLine(t, job["script"], runImage)
	c := dockerRun(t, words(t, line, t.TempDir(), env), env)
	asRunner(t, line, c)
	keyFile(t, c, "/tmp/halebench-cache-key-41")
	seesCI(t, "the run", c)
}
