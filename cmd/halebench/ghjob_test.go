package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// ghJob plays one run of a GitHub job's steps on this host as its runner
// would: each run: line in bash as the runner's user, in a fresh
// workspace; actions/checkout and actions/cache/{restore,save} done by the
// test (the cache store outlives the job, as GitHub's does); artifacts not
// uploaded (nothing leaves this host).
type ghJob struct {
	r       *runner
	work    string                       // $GITHUB_WORKSPACE
	files   string                       // $GITHUB_OUTPUT, $GITHUB_STEP_SUMMARY, the step scripts
	tag     string                       // halebench's image, in place of halebench:latest
	caches  map[string]string            // the CI's cache store: key → saved folder
	outputs map[string]map[string]string // step id → its outputs
	failed  bool                         // a step failed: only if: always() steps run on
	runs    []ghRun
}

// ghRun is what one run: step did.
type ghRun struct {
	line string // as the recipe has it
	code int
	out  string
	took time.Duration
}

// play runs the steps in order, each when its if: allows.
func (j *ghJob) play(t *testing.T, steps []ghStep) {
	t.Helper()
	j.outputs = map[string]map[string]string{}
	j.r.mkdir(t, j.files)
	for i, s := range steps {
		what := s.Uses
		if what == "" {
			what = strings.Fields(s.Run)[0] + " …"
		}
		if !j.cond(t, s.If) {
			t.Logf("step %d (%s): skipped (if: %s)", i+1, what, s.If)
			continue
		}
		start := time.Now()
		switch {
		case strings.HasPrefix(s.Uses, "actions/checkout@"):
			j.r.checkout(t, j.work)
		case strings.HasPrefix(s.Uses, "actions/cache/restore@"):
			j.restore(t, s)
		case strings.HasPrefix(s.Uses, "actions/cache/save@"):
			j.save(t, s)
		case strings.HasPrefix(s.Uses, "actions/setup-go@"):
			// the runner's user has Go on PATH already (runnerEnv)
		case strings.HasPrefix(s.Uses, "actions/upload-artifact@"):
		case s.Uses != "":
			t.Fatalf("step %d uses %s, which this test does not play", i+1, s.Uses)
		default:
			j.run(t, i+1, s)
		}
		t.Logf("step %d (%s): %.1f s", i+1, what, time.Since(start).Seconds())
	}
}

// cond evaluates a step's if: the terms the recipe uses (always(),
// success(), steps.ID.outputs.NAME == or != 'literal'), joined by &&.
func (j *ghJob) cond(t *testing.T, expr string) bool {
	t.Helper()
	expr = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(expr), "${{"), "}}")
	always, ok := false, true
	for _, term := range strings.Split(expr, "&&") {
		term = strings.TrimSpace(term)
		if m := ifTerm.FindStringSubmatch(term); m != nil {
			ok = ok && (j.outputs[m[1]][m[2]] == m[4]) == (m[3] == "==")
			continue
		}
		switch term {
		case "":
		case "always()":
			always = true
		case "success()":
			ok = ok && !j.failed
		default:
			t.Fatalf("if: %s: the test does not evaluate %q", expr, term)
		}
	}
	return ok && (always || !j.failed)
}

var (
	ifTerm  = regexp.MustCompile(`^steps\.([\w-]+)\.outputs\.([\w-]+) (==|!=) '([^']*)'$`)
	stepRef = regexp.MustCompile(`\$\{\{ *steps\.([\w-]+)\.outputs\.([\w-]+) *\}\}`)
)

// expand puts the steps' outputs into s; any other expression fails.
func (j *ghJob) expand(t *testing.T, s string) string {
	t.Helper()
	s = stepRef.ReplaceAllStringFunc(s, func(ref string) string {
		m := stepRef.FindStringSubmatch(ref)
		return j.outputs[m[1]][m[2]]
	})
	if strings.Contains(s, "${{") {
		t.Fatalf("%q: the test evaluates no expression but a step's output", s)
	}
	return s
}

// restore is actions/cache/restore: the folder saved under the key, else
// under a key starting with a restore-keys prefix; cache-hit on the key only.
func (j *ghJob) restore(t *testing.T, s ghStep) {
	t.Helper()
	key, hit := j.expand(t, s.With["key"]), "false"
	from, ok := j.caches[key]
	if ok {
		hit = "true"
	} else if prefix := s.With["restore-keys"]; prefix != "" {
		for k, f := range j.caches {
			if strings.HasPrefix(k, strings.TrimSpace(prefix)) {
				from, ok = f, true
			}
		}
	}
	if ok {
		if err := os.Rename(from, filepath.Join(j.work, s.With["path"])); err != nil {
			t.Fatal(err)
		}
		for k, f := range j.caches {
			if f == from {
				delete(j.caches, k)
			}
		}
	}
	t.Logf("cache restore %s: found %v, cache-hit %s", key, ok, hit)
	if s.ID != "" {
		j.outputs[s.ID] = map[string]string{"cache-hit": hit}
	}
}

// save is actions/cache/save: the folder kept under the key, unless the
// store holds that key already (GitHub refuses to overwrite an entry).
func (j *ghJob) save(t *testing.T, s ghStep) {
	t.Helper()
	key := j.expand(t, s.With["key"])
	if _, ok := j.caches[key]; ok {
		t.Logf("cache save %s: already stored", key)
		return
	}
	to := filepath.Join(j.r.home, "cache-store", strings.ReplaceAll(key, "/", "_"))
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(j.work, s.With["path"]), to); err != nil {
		t.Fatalf("cache save %s: %v", key, err)
	}
	j.caches[key] = to
	t.Logf("cache save %s", key)
}

// run is a run: step, as GitHub runs it on Linux (bash -eo pipefail), with
// $HALEBENCH_IMAGE the test's tag (the job's env, which names it by the
// run's id, is not read) and the run's arguments made small (recipeArgs),
// $RUNNER_TEMP the job's own folder. The job plays a push on a protected
// branch: an env value naming the secret HALEBENCH_CACHE_KEY gets the test's key.
func (j *ghJob) run(t *testing.T, n int, s ghStep) {
	t.Helper()
	script := strings.Replace(j.expand(t, s.Run), runImage, runImage+strings.TrimPrefix(recipeArgs, " ")+" ", 1)
	file := filepath.Join(j.files, "step-"+itoa(n)+".sh")
	// the runner's own file, as the runner writes its step scripts
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil || os.Chown(file, int(j.r.uid), int(j.r.gid)) != nil {
		t.Fatalf("writing %s for %s: %v", file, j.r.name, err)
	}
	env := []string{"GITHUB_WORKSPACE=" + j.work, "GITHUB_OUTPUT=" + filepath.Join(j.files, "output"),
		"GITHUB_STEP_SUMMARY=" + filepath.Join(j.files, "summary.md"), "HALEBENCH_IMAGE=" + j.tag, "RUNNER_TEMP=" + j.files}
	for k, v := range s.Env {
		if strings.Contains(v, "secrets.HALEBENCH_CACHE_KEY") {
			v = recipeCacheKey
		}
		env = append(env, k+"="+j.expand(t, v))
	}
	start := time.Now()
	out, err := j.r.cmd(j.work, env, "bash", "--noprofile", "--norc", "-eo", "pipefail", file).CombinedOutput()
	code := 0
	if err != nil {
		code = -1
		if ee, ok := err.(interface{ ExitCode() int }); ok {
			code = ee.ExitCode()
		}
		j.failed = true
	}
	j.runs = append(j.runs, ghRun{line: s.Run, code: code, out: string(out), took: time.Since(start)})
	if s.ID != "" {
		j.outputs[s.ID] = readOutputs(t, filepath.Join(j.files, "output"))
	}
}
