package main

import (
	"fmt"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// githubPlan reads docs/recipes/github-shards.yml: a matrix job of N
// shards, each moving its report to its own name and uploading it as its
// own artifact; a merge job that needs it and downloads them all into one
// folder.
func githubPlan(t *testing.T, tmp string) recipePlan {
	doc := recipeDocs(t, "github-shards.yml")[0]
	var benchName string
	var bench, merge map[string]any
	for name, j := range get(doc, "jobs").(map[string]any) {
		if get(j, "strategy", "matrix") != nil {
			benchName, bench = name, j.(map[string]any)
		} else {
			merge = j.(map[string]any)
		}
	}
	if bench == nil || merge == nil {
		t.Fatal("want a matrix job and a merge job")
	}
	if needs := list(merge["needs"]); len(needs) != 1 || needs[0] != benchName {
		t.Errorf("the merge job needs %v; want [%s]", needs, benchName)
	}
	matrix := list(get(bench, "strategy", "matrix", "shard"))
	p := recipePlan{n: len(matrix)}
	mergeDir := filepath.Join(tmp, "merge")
	download := step(t, merge, "actions/download-artifact")
	pattern, _ := get(download, "with", "pattern").(string)
	if get(download, "with", "merge-multiple") != true {
		t.Error("download-artifact without merge-multiple: true puts each shard in a folder of its own, not where the merge looks")
	}
	for i, v := range matrix {
		k := i + 1
		if v != k {
			t.Errorf("matrix.shard[%d] = %v; want %d", i, v, k)
		}
		sub := func(s string) string { return strings.ReplaceAll(s, "${{ matrix.shard }}", itoa(k)) }
		ws := filepath.Join(tmp, "shard"+itoa(k))
		runStep := step(t, bench, runImage)
		cacheKeyGate(t, step(t, bench, keyWrite))
		line, _ := runStep["run"].(string)
		c := dockerRun(t, words(t, sub(line), ws, nil), ciJob)
		asRunner(t, line, c)
		seesCI(t, "shard "+itoa(k), c)
		keyFile(t, c, filepath.Join(runnerTemp, "halebench-cache-key"))
		sp, results := parseRun(t, c)
		wantShard(t, sp, k, p.n)
		p.shards = append(p.shards, c)
		mv, _ := get(step(t, bench, "mv results/run-"), "run").(string)
		w := words(t, sub(mv), ws, nil)
		if ok, _ := path.Match(path.Base(w[1]), reportName); len(w) != 3 || !ok || filepath.Join(ws, path.Dir(w[1])) != results {
			t.Errorf("shard %d moves %q; its report is %s/%s", k, w, results, reportName)
		}
		upload := step(t, bench, "actions/upload-artifact")
		name, _ := get(upload, "with", "name").(string)
		file, _ := get(upload, "with", "path").(string)
		if sub(file) != w[2] {
			t.Errorf("shard %d uploads %s; its report is %s", k, sub(file), w[2])
		}
		if ok, _ := path.Match(pattern, sub(name)); !ok {
			t.Errorf("the merge downloads %q; shard %d uploads %q", pattern, k, sub(name))
		}
		dir, _ := get(download, "with", "path").(string)
		p.reports = append(p.reports, filepath.Join(mergeDir, dir, path.Base(w[2])))
	}
	distinct(t, p.reports)
	cacheSplit(t, bench)
	githubHardened(t, doc, bench, recipeText(t, "github-shards.yml"))
	if s := step(t, merge, "make "); s["run"] != "make build" {
		t.Errorf("the merge job runs %q; merge needs no engine: `make build` (the binary), not the image", s["run"])
	}
	mk, _ := get(step(t, merge, "mkdir -p"), "run").(string)
	p.mkdirs = mkdirs(t, mk, mergeDir)
	line, _ := get(step(t, merge, "halebench merge "), "run").(string)
	p.merge = hostCmd(t, words(t, line, mergeDir, nil), mergeDir)
	// On the runner, merge appends the step summary itself.
	summary := filepath.Join(tmp, "step-summary.md")
	p.env = []string{"GITHUB_STEP_SUMMARY=" + summary, "CI=" + ciJob["CI"]}
	p.readBack = append(p.readBack, summary)
	return p
}

// cacheKeyGate checks that a GitHub step hands HALEBENCH_CACHE_KEY to
// pushes on protected branches only (docs/ci.md).
func cacheKeyGate(t *testing.T, s map[string]any) {
	t.Helper()
	key, _ := get(s, "env", "HALEBENCH_CACHE_KEY").(string)
	if !strings.Contains(key, "github.event_name == 'push' && github.ref_protected && secrets.") {
		t.Errorf("the run step's HALEBENCH_CACHE_KEY is %q: hand the secret to pushes on protected branches only", key)
	}
}

// cacheSplit checks a GitHub job's cache steps: restored before the run,
// saved under the same path and key after it even when the run exited 1
// (actions/cache alone saves only when every step passed).
func cacheSplit(t *testing.T, job map[string]any) {
	t.Helper()
	restore, save := step(t, job, "actions/cache/restore@"), step(t, job, "actions/cache/save@")
	steps := list(job["steps"])
	at := func(s map[string]any) int {
		for i, x := range steps {
			if reflect.DeepEqual(x, s) {
				return i
			}
		}
		return -1
	}
	if at(restore) > at(step(t, job, runImage)) || at(save) != len(steps)-1 {
		t.Error("want actions/cache/restore before the run and actions/cache/save as the last step")
	}
	// make image restores the base from the folder: after the restore, or
	// every job builds the base cold
	if img := step(t, job, "make image"); at(img) < at(restore) || !strings.Contains(img["run"].(string), "--cache-dir=") {
		t.Errorf("make image (%q) before the cache restore or without its folder: the base is built cold in every job", img["run"])
	}
	if cond, _ := save["if"].(string); !strings.Contains(cond, "always()") {
		t.Errorf("actions/cache/save runs if %q: without always() a run that exits 1 saves nothing", cond)
	}
	for _, k := range []string{"path", "key"} {
		if get(save, "with", k) != get(restore, "with", k) {
			t.Errorf("the cache is saved with %s %v, restored with %v", k, get(save, "with", k), get(restore, "with", k))
		}
	}
}

// hostCmd reads `bin/halebench VERB ARGS…` run on the runner in dir: its
// relative paths made absolute, so that the merge's files resolve as the
// runner's would.
func hostCmd(t *testing.T, w []string, dir string) containerCmd {
	t.Helper()
	if len(w) < 2 || w[0] != "bin/halebench" {
		t.Fatalf("%q: not bin/halebench", w)
	}
	c := containerCmd{mounts: map[string]string{dir: dir}}
	for i, a := range w[1:] {
		name, val, isFlag := strings.Cut(a, "=")
		switch {
		case i == 0 || (!isFlag && strings.HasPrefix(a, "-")):
			c.args = append(c.args, a)
		case isFlag:
			c.args = append(c.args, name+"="+filepath.Join(dir, val))
		default:
			c.args = append(c.args, filepath.Join(dir, a))
		}
	}
	return c
}

// step is the one step of a GitHub job that uses what or runs a line
// holding it.
func step(t *testing.T, job map[string]any, what string) map[string]any {
	t.Helper()
	var found []map[string]any
	for _, s := range list(job["steps"]) {
		uses, _ := get(s, "uses").(string)
		run, _ := get(s, "run").(string)
		if strings.HasPrefix(uses, what) || strings.Contains(run, what) {
			found = append(found, s.(map[string]any))
		}
	}
	if len(found) != 1 {
		t.Fatalf("%d steps use or run %q; want one", len(found), what)
	}
	return found[0]
}

// gitlabPlan reads docs/recipes/gitlab-shards.yml: a job with parallel: N
// whose shards read --shard=auto from CI_NODE_INDEX/CI_NODE_TOTAL, each
// keeping its report under its own name as an artifact; a merge job that
// needs it (so gets every shard's artifacts in its work tree).
func gitlabPlan(t *testing.T, tmp string) recipePlan {
	doc := recipeDocs(t, "gitlab-shards.yml")[0]
	var benchName string
	var bench, merge map[string]any
	for name, j := range doc {
		if get(j, "parallel") != nil {
			benchName, bench = name, j.(map[string]any)
		} else if get(j, "script") != nil {
			merge = j.(map[string]any)
		}
	}
	if bench == nil || merge == nil {
		t.Fatal("want a parallel job and a merge job")
	}
	if needs := list(merge["needs"]); len(needs) != 1 || needs[0] != benchName {
		t.Errorf("the merge job needs %v; want [%s]", needs, benchName)
	}
	if merge["when"] != "always" {
		t.Error("the merge job runs only when every shard passed: a regression in one shard would leave the run without a verdict")
	}
	p := recipePlan{n: bench["parallel"].(int)}
	mergeDir := filepath.Join(tmp, "merge")
	for k := 1; k <= p.n; k++ {
		env := merged(ciJob, map[string]string{"CI_NODE_INDEX": itoa(k), "CI_NODE_TOTAL": itoa(p.n), "CI_JOB_ID": "4" + itoa(k)})
		ws := filepath.Join(tmp, "shard"+itoa(k))
		line := scriptLine(t, bench["script"], runImage)
		c := dockerRun(t, words(t, line, ws, env), env)
		asRunner(t, line, c)
		seesCI(t, "shard "+itoa(k), c)
		keyFile(t, c, "/tmp/halebench-cache-key-4"+itoa(k))
		sp, results := parseRun(t, c)
		wantShard(t, sp, k, p.n)
		p.shards = append(p.shards, c)
		w := words(t, scriptLine(t, bench["after_script"], "mv results/run-"), ws, env)
		if ok, _ := path.Match(path.Base(w[1]), reportName); len(w) != 3 || !ok || filepath.Join(ws, path.Dir(w[1])) != results {
			t.Errorf("shard %d moves %q; its report is %s/%s", k, w, results, reportName)
		}
		kept := false
		for _, g := range list(get(bench, "artifacts", "paths")) {
			ok, _ := path.Match(g.(string), w[2])
			kept = kept || ok
		}
		if !kept || get(bench, "artifacts", "when") != "always" {
			t.Errorf("shard %d's report %s is not kept as an artifact whatever the shard's verdict", k, w[2])
		}
		p.reports = append(p.reports, filepath.Join(mergeDir, w[2]))
	}
	distinct(t, p.reports)
	gitlabHardened(t, bench, recipeText(t, "gitlab-shards.yml"))
	if to, _ := merge["timeout"].(string); to == "" {
		t.Error("the merge job has no timeout")
	}
	p.mkdirs = mkdirs(t, scriptLine(t, merge["script"], "mkdir -p"), mergeDir)
	p.merge = hostCmd(t, words(t, scriptLine(t, merge["script"], "bin/halebench merge "), mergeDir, nil), mergeDir)
	p.env = []string{"CI=" + ciJob["CI"]} // the runner's: GitLab's
	junit, _ := get(merge, "artifacts", "reports", "junit").(string)
	p.readBack = append(p.readBack, filepath.Join(mergeDir, junit))
	return p
}

// k8sPlan reads docs/recipes/k8s-indexed-job.yaml, its RUNID made a run's
// name: an Indexed Job of N completions whose pods read --shard=auto from
// JOB_COMPLETION_INDEX with --shards=N against a docker:dind sidecar,
// keeping shard-K.json (K from 1) on a shared volume; a merge Job on the
// same volume.
func k8sPlan(t *testing.T, tmp string) recipePlan {
	var shards, merge map[string]any
	steps := map[string][]string{}
	for _, d := range recipeDocs(t, "k8s-indexed-job.yaml") {
		label, _ := get(d, "metadata", "labels", "halebench-step").(string)
		steps[label] = append(steps[label], get(d, "kind").(string))
		if name, _ := get(d, "metadata", "name").(string); !strings.HasSuffix(name, "-RUNID") && name != "halebench-cache" {
			t.Errorf("%s %s: a fixed name; end it in -RUNID, which each run replaces (a Job applied again under its name runs nothing)", d["kind"], name)
		}
		switch {
		case d["kind"] == "Job" && get(d, "spec", "completionMode") == "Indexed":
			shards = d
		case d["kind"] == "Job":
			merge = d
		}
	}
	if shards == nil || merge == nil || strings.Join(steps["shards"], ",") != "PersistentVolumeClaim,PersistentVolumeClaim,Job" || strings.Join(steps["merge"], ",") != "Job" {
		t.Fatalf("want two PVCs (results, cache) and an Indexed Job labelled halebench-step=shards, a Job labelled merge; got %v", steps)
	}
	dindSidecar(t, shards)
	k8sHardened(t, shards, merge)
	p := recipePlan{n: get(shards, "spec", "completions").(int)}
	for i := 0; i < p.n; i++ {
		c, script := podCmd(t, shards, tmp, map[string]string{"JOB_COMPLETION_INDEX": itoa(i)})
		if len(script) != 4 || script[1] != "code=$?" || script[3] != "exit $code" {
			t.Fatalf("the shard runs %q; want: halebench run …; code=$?; mv …; exit $code", script)
		}
		w := words(t, script[0], tmp, c.env)
		c.args = w[1:]
		// the pod's own /tmp, where the report waits for its mv
		c.mounts["/tmp"] = filepath.Join(tmp, "pod"+itoa(i+1), "tmp")
		sp, results := parseRun(t, c)
		wantShard(t, sp, i+1, p.n)
		seesCI(t, "shard "+itoa(i+1), c)
		p.shards = append(p.shards, c)
		mv := words(t, script[2], tmp, c.env)
		if len(mv) != 3 || mv[0] != "mv" || c.hostOf(t, mv[1]) != filepath.Join(results, "run-*.json") {
			t.Errorf("shard %d: %q; its report is %s", i+1, mv, filepath.Join(results, reportName))
		}
		if want := "/results/shard-" + itoa(i+1) + ".json"; mv[len(mv)-1] != want {
			t.Errorf("shard %d keeps its report as %s; want %s (K from 1, as in the other recipes)", i+1, mv[len(mv)-1], want)
		}
		p.reports = append(p.reports, c.hostOf(t, mv[len(mv)-1]))
	}
	distinct(t, p.reports)
	p.merge, _ = podCmd(t, merge, tmp, nil)
	seesCI(t, "the merge", p.merge)
	p.env = []string{"CI=" + p.merge.env["CI"]} // the merge container's own
	if len(list(get(merge, "spec", "template", "spec", "initContainers"))) != 0 {
		t.Error("the merge Job has a sidecar: merge needs no engine")
	}
	return p
}

// dindSidecar checks that a Job's pod brings its own engine: a docker:dind
// sidecar (an init container that restarts, so the Job ends with
// halebench) serving a socket on a volume halebench's container mounts
// where its DOCKER_HOST names it.
func dindSidecar(t *testing.T, job map[string]any) {
	t.Helper()
	pod := get(job, "spec", "template", "spec")
	var dind any
	for _, c := range list(get(pod, "initContainers")) {
		if img, _ := get(c, "image").(string); pinnedDind.MatchString(img) && get(c, "restartPolicy") == "Always" {
			dind = c
		}
	}
	if dind == nil {
		t.Fatal("no docker:VERSION-dind@sha256:DIGEST sidecar (initContainers, restartPolicy: Always; pinned by a real digest, 64 hex digits): a containerd node has no Docker socket")
	}
	mounts := func(c any) map[string]string {
		out := map[string]string{}
		for _, m := range list(get(c, "volumeMounts")) {
			out[get(m, "name").(string)] = get(m, "mountPath").(string)
		}
		return out
	}
	hb := list(get(pod, "containers"))[0]
	host := ""
	for _, e := range list(get(hb, "env")) {
		if get(e, "name") == "DOCKER_HOST" {
			host, _ = get(e, "value").(string)
		}
	}
	args := fmt.Sprint(get(dind, "args"))
	shared := false
	for name, at := range mounts(dind) {
		sock := "unix://" + at + "/docker.sock"
		shared = shared || (mounts(hb)[name] == at && host == sock && strings.Contains(args, "--host="+sock))
	}
	if !shared {
		t.Errorf("halebench's DOCKER_HOST %q is not the socket the sidecar serves (%s) on a volume both mount", host, args)
	}
}

// pinnedDind is docker:dind at a version, pinned by a digest (not a
// placeholder).
var pinnedDind = regexp.MustCompile(`^docker:[0-9][0-9.]*-dind@sha256:[0-9a-f]{64}$`)

// podCmd is a Job's one container: its arguments with the $(VAR)s
// Kubernetes expands, its env (the completion index from the annotation),
// its volumes on the host (each claim a folder of tmp). A container whose
// command is sh -c gives its script's commands instead (split at "; "),
// its args unset. Its image is halebench's, from a registry by digest.
func podCmd(t *testing.T, job map[string]any, tmp string, index map[string]string) (containerCmd, []string) {
	t.Helper()
	pod := get(job, "spec", "template", "spec")
	ctrs := list(get(pod, "containers"))
	if len(ctrs) != 1 {
		t.Fatalf("%v: want one container", get(job, "metadata", "name"))
	}
	ctr := ctrs[0]
	if img, _ := get(ctr, "image").(string); img != "REGISTRY/halebench@sha256:DIGEST" {
		t.Errorf("%v runs %s; want REGISTRY/halebench@sha256:DIGEST (a containerd node never looks in a Docker engine's images)", get(job, "metadata", "name"), img)
	}
	c := containerCmd{env: map[string]string{}, mounts: map[string]string{}}
	for _, e := range list(get(ctr, "env")) {
		name := get(e, "name").(string)
		if get(e, "valueFrom", "fieldRef", "fieldPath") == "metadata.annotations['batch.kubernetes.io/job-completion-index']" {
			c.env[name] = index["JOB_COMPLETION_INDEX"]
		} else if v, ok := get(e, "value").(string); ok {
			c.env[name] = v
		}
	}
	claims := map[string]string{}
	for _, v := range list(get(pod, "volumes")) {
		if claim, ok := get(v, "persistentVolumeClaim", "claimName").(string); ok {
			claims[get(v, "name").(string)] = filepath.Join(tmp, "claim-"+claim)
		}
	}
	for _, m := range list(get(ctr, "volumeMounts")) {
		if host, ok := claims[get(m, "name").(string)]; ok {
			c.mounts[get(m, "mountPath").(string)] = host
		}
	}
	var args []string
	for _, a := range list(get(ctr, "args")) {
		s := a.(string)
		for k, v := range c.env {
			s = strings.ReplaceAll(s, "$("+k+")", v)
		}
		args = append(args, s)
	}
	if cmd := fmt.Sprint(get(ctr, "command")); cmd == "[sh -c]" && len(args) == 1 {
		return c, strings.Split(args[0], "; ")
	} else if cmd != "<nil>" {
		t.Fatalf("%v: command %s; want none (halebench) or sh -c", get(job, "metadata", "name"), cmd)
	}
	c.args = args
	return c, nil
}

func merged(a, b map[string]string) map[string]string {
	out := map[string]string{}
	for _, m := range []map[string]string{a, b} {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}
