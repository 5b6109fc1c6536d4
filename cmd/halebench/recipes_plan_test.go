package main

import (
	"path"
	"path/filepath"
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
		runStep := step(t, bench, "halebench:latest run ")
		if key, _ := get(runStep, "env", "HALEBENCH_CACHE_KEY").(string); !strings.Contains(key, "github.event_name == 'push' && secrets.") {
			t.Errorf("the run step's HALEBENCH_CACHE_KEY is %q: hand the secret to pushes only", key)
		}
		line, _ := runStep["run"].(string)
		c := dockerRun(t, words(t, sub(line), ws, nil), cacheKeyEnv)
		hasKey(t, c)
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
	mk, _ := get(step(t, merge, "mkdir -p"), "run").(string)
	p.mkdirs = mkdirs(t, mk, mergeDir)
	line, _ := get(step(t, merge, "halebench:latest merge "), "run").(string)
	p.merge = dockerRun(t, words(t, line, mergeDir, nil), nil)
	cat, _ := get(step(t, merge, "GITHUB_STEP_SUMMARY"), "run").(string)
	if f := strings.Fields(cat); len(f) == 4 && f[0] == "cat" {
		p.readBack = append(p.readBack, filepath.Join(mergeDir, f[1]))
	} else {
		t.Errorf("%q: want cat SUMMARY >> \"$GITHUB_STEP_SUMMARY\"", cat)
	}
	return p
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
		env := map[string]string{"CI_NODE_INDEX": itoa(k), "CI_NODE_TOTAL": itoa(p.n)}
		ws := filepath.Join(tmp, "shard"+itoa(k))
		c := dockerRun(t, words(t, scriptLine(t, bench["script"], "halebench:latest run "), ws, env), merged(env, cacheKeyEnv))
		hasKey(t, c)
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
	p.mkdirs = mkdirs(t, scriptLine(t, merge["script"], "mkdir -p"), mergeDir)
	p.merge = dockerRun(t, words(t, scriptLine(t, merge["script"], "halebench:latest merge "), mergeDir, nil), nil)
	junit, _ := get(merge, "artifacts", "reports", "junit").(string)
	p.readBack = append(p.readBack, filepath.Join(mergeDir, junit))
	return p
}

// k8sPlan reads docs/recipes/k8s-indexed-job.yaml: an Indexed Job of N
// completions whose pods read --shard=auto from JOB_COMPLETION_INDEX with
// --shards=N, writing to a shared volume; a merge Job on the same volume.
func k8sPlan(t *testing.T, tmp string) recipePlan {
	var shards, merge map[string]any
	steps := map[string][]string{}
	for _, d := range recipeDocs(t, "k8s-indexed-job.yaml") {
		label, _ := get(d, "metadata", "labels", "halebench-step").(string)
		steps[label] = append(steps[label], get(d, "kind").(string))
		switch {
		case d["kind"] == "Job" && get(d, "spec", "completionMode") == "Indexed":
			shards = d
		case d["kind"] == "Job":
			merge = d
		}
	}
	if shards == nil || merge == nil || strings.Join(steps["shards"], ",") != "PersistentVolumeClaim,Job" || strings.Join(steps["merge"], ",") != "Job" {
		t.Fatalf("want a PVC and an Indexed Job labelled halebench-step=shards, a Job labelled merge; got %v", steps)
	}
	p := recipePlan{n: get(shards, "spec", "completions").(int)}
	for i := 0; i < p.n; i++ {
		c := podCmd(t, shards, tmp, map[string]string{"JOB_COMPLETION_INDEX": itoa(i)})
		sp, results := parseRun(t, c)
		wantShard(t, sp, i+1, p.n)
		p.shards = append(p.shards, c)
		p.reports = append(p.reports, filepath.Join(results, reportName))
	}
	distinct(t, p.reports)
	c := podCmd(t, merge, tmp, nil)
	w := words(t, c.args[len(c.args)-1], tmp, nil)
	if len(w) < 3 || w[0] != "exec" || w[1] != "halebench" {
		t.Fatalf("the merge Job runs %q; want exec halebench merge …", w)
	}
	c.args = w[2:]
	p.merge = c
	return p
}

// podCmd is a Job's one container: its arguments with the $(VAR)s
// Kubernetes expands, its env (the completion index from the annotation),
// its volumes on the host (each claim a folder of tmp).
func podCmd(t *testing.T, job map[string]any, tmp string, index map[string]string) containerCmd {
	t.Helper()
	pod := get(job, "spec", "template", "spec")
	ctrs := list(get(pod, "containers"))
	if len(ctrs) != 1 {
		t.Fatalf("%v: want one container", get(job, "metadata", "name"))
	}
	ctr := ctrs[0]
	c := containerCmd{env: map[string]string{}, mounts: map[string]string{}}
	for _, e := range list(get(ctr, "env")) {
		name := get(e, "name").(string)
		if get(e, "valueFrom", "fieldRef", "fieldPath") == "metadata.annotations['batch.kubernetes.io/job-completion-index']" {
			c.env[name] = index["JOB_COMPLETION_INDEX"]
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
	for _, a := range list(get(ctr, "args")) {
		s := a.(string)
		for k, v := range c.env {
			s = strings.ReplaceAll(s, "$("+k+")", v)
		}
		c.args = append(c.args, s)
	}
	return c
}

// cacheKeyEnv is the job's environment where the CI hands the cache's
// signing key in.
var cacheKeyEnv = map[string]string{"HALEBENCH_CACHE_KEY": "the-ci-secret"}

// hasKey checks that a shard's container gets the job's cache key.
func hasKey(t *testing.T, c containerCmd) {
	t.Helper()
	if c.env["HALEBENCH_CACHE_KEY"] != cacheKeyEnv["HALEBENCH_CACHE_KEY"] {
		t.Error("the shard's docker run does not pass HALEBENCH_CACHE_KEY on (-e HALEBENCH_CACHE_KEY)")
	}
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
