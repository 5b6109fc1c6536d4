package main

import (
	"fmt"
	"os"
	"path"
	"strconv"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/judge"
)

// What the recipes must hold on self-hosted and shared runners: the
// container as the runner's user (nothing root-owned left in the work
// tree), halebench's image under a tag of the job's own, the signing key
// as a read-only file (an -e value is shown by `docker inspect` to every
// user of the engine), GitHub's permissions, timeouts and concurrency, and
// a Kubernetes shard Guaranteed, alone on its node, with a pinned engine
// and a cache volume.

const (
	// runImage is the run step's docker run of the job's own image.
	runImage = `"$HALEBENCH_IMAGE" run `
	// keyWrite is the step that writes the signing key to its file.
	keyWrite = `printf '%s' "$HALEBENCH_CACHE_KEY"`
	// keyMount is where a container reads the key.
	keyMount = "/run/secrets/halebench-cache-key"
)

// asRunner checks a docker run of halebench's image (line as written, c as
// read): the runner's uid and gid, and the engine socket's group when it
// mounts the socket.
func asRunner(t *testing.T, line string, c containerCmd) {
	t.Helper()
	if !strings.Contains(line, `--user "$(id -u):$(id -g)"`) || c.user != fmt.Sprintf("%d:%d", os.Getuid(), os.Getgid()) {
		t.Errorf("%q: not as the runner's user (--user \"$(id -u):$(id -g)\"): what it writes in the work tree is root's, and the runner's git clean fails", line)
	}
	if _, ok := c.mounts["/var/run/docker.sock"]; ok && !strings.Contains(line, `--group-add "$(stat -c %g /var/run/docker.sock)"`) {
		t.Errorf("%q: mounts the engine's socket without its group (--group-add \"$(stat -c %%g /var/run/docker.sock)\"): the runner's user cannot reach it", line)
	}
}

// ciJob is what GitHub Actions and GitLab set in every job's environment
// (and so on the runner, where the merge runs): CI=true.
var ciJob = map[string]string{"CI": "true"}

// seesCI checks that halebench, as a recipe runs it (c: in its container,
// or on the runner), knows it runs in CI: a run that could not measure its
// subject then exits 3 instead of 0. A container does not inherit the
// job's environment: docker run must pass CI on (-e CI).
func seesCI(t *testing.T, what string, c containerCmd) {
	t.Helper()
	if !judge.InCI(func(k string) string { return c.env[k] }) {
		t.Errorf("%s: halebench does not see CI (CI=%q): a run that could not measure its subject exits 0 (pass -e CI to its docker run, or set CI in its env)", what, c.env["CI"])
	}
}

// keyFile checks that a shard's container gets the signing key as a file
// mounted read-only from host, never as a value in its environment.
func keyFile(t *testing.T, c containerCmd, host string) {
	t.Helper()
	if _, ok := c.env["HALEBENCH_CACHE_KEY"]; ok {
		t.Error("the key is in the container's environment (-e HALEBENCH_CACHE_KEY): docker inspect shows it to every user of the engine")
	}
	f := c.env["HALEBENCH_CACHE_KEY_FILE"]
	if f != keyMount || c.mounts[f] != host || !c.ro[f] {
		t.Errorf("HALEBENCH_CACHE_KEY_FILE %q, mounted from %q (read-only %v); want %s, from %s, read-only", f, c.mounts[f], c.ro[f], keyMount, host)
	}
}

// githubHardened checks a GitHub workflow (doc) and its job that runs
// halebench's image: read-only contents, a concurrency group, every job's
// timeout, the job's own image tag, the key written to a file only the
// job's user reads, and halebench:latest nowhere.
func githubHardened(t *testing.T, doc, job map[string]any, text string) {
	t.Helper()
	if get(doc, "permissions", "contents") != "read" || len(get(doc, "permissions").(map[string]any)) != 1 {
		t.Errorf("permissions: %v; want {contents: read} (the job writes nothing through GitHub's API)", get(doc, "permissions"))
	}
	if g, _ := get(doc, "concurrency", "group").(string); !strings.Contains(g, "github.ref") {
		t.Errorf("concurrency group %q: want one per ref", g)
	}
	for name, j := range get(doc, "jobs").(map[string]any) {
		if m, ok := get(j, "timeout-minutes").(int); !ok || m <= 0 || m > 360 {
			t.Errorf("job %s: timeout-minutes %v; want one set, under GitHub's 360", name, get(j, "timeout-minutes"))
		}
	}
	tag, _ := get(job, "env", "HALEBENCH_IMAGE").(string)
	for _, want := range []string{"github.run_id", "github.run_attempt", "github.job"} {
		if !strings.Contains(tag, want) {
			t.Errorf("HALEBENCH_IMAGE %q lacks %s: jobs on one engine would share a tag", tag, want)
		}
	}
	if get(job, "strategy", "matrix") != nil && !strings.Contains(tag, "matrix.") {
		t.Errorf("HALEBENCH_IMAGE %q: a matrix job's entries share it", tag)
	}
	if strings.Contains(text, "halebench:latest") {
		t.Error("the workflow names halebench:latest: every job on a shared engine retags it")
	}
	w, _ := step(t, job, keyWrite)["run"].(string)
	if !strings.Contains(w, "umask 077") || !strings.Contains(w, `> "$RUNNER_TEMP/halebench-cache-key"`) {
		t.Errorf("the key is written by %q; want it in $RUNNER_TEMP/halebench-cache-key under umask 077", w)
	}
	if rm, _ := step(t, job, "docker image rm ")["run"].(string); !strings.Contains(rm, `"$HALEBENCH_IMAGE"`) || get(step(t, job, "docker image rm "), "if") != "always()" {
		t.Errorf("the job's image is removed by %q; want its own tag, always()", rm)
	}
}

// gitlabHardened checks a GitLab job that runs halebench's image: a
// timeout, the job's own tag, the key written to a file only the job's
// user reads and removed after, never both ways to make image.
func gitlabHardened(t *testing.T, job map[string]any, text string) {
	t.Helper()
	if to, _ := job["timeout"].(string); to == "" {
		t.Error("no timeout: a stuck engine holds the runner for the project's default")
	}
	if tag, _ := get(job, "variables", "HALEBENCH_IMAGE").(string); !strings.Contains(tag, "$CI_JOB_ID") {
		t.Errorf("HALEBENCH_IMAGE %q: want one per job ($CI_JOB_ID)", tag)
	}
	if strings.Contains(text, "halebench:latest") {
		t.Error("the recipe names halebench:latest: every job on a shared engine retags it")
	}
	w := scriptLine(t, job["script"], "umask 077")
	if !strings.Contains(w, "umask 077") || !strings.Contains(w, `> "/tmp/halebench-cache-key-$CI_JOB_ID"`) {
		t.Errorf("the key is written by %q; want /tmp/halebench-cache-key-$CI_JOB_ID under umask 077", w)
	}
	if img := scriptLine(t, job["script"], "make image"); !strings.Contains(img, "HALEBENCH_CACHE_KEY= ") || !strings.Contains(img, "--cache-dir=") {
		t.Errorf("%q: the key both ways (refused), or no cache folder", img)
	}
	scriptLine(t, job["after_script"], `rm -f "/tmp/halebench-cache-key-$CI_JOB_ID"`)
}

// k8sHardened checks the Kubernetes recipe's pods: every container's
// requests equal to its limits in whole CPUs (Guaranteed QoS), one shard a
// node (required anti-affinity on the hostname, matching the pods' own
// labels), a cache volume --cache-dir names, the key from a Secret mounted
// read-only, and what it needs said in the header.
func k8sHardened(t *testing.T, shards, merge map[string]any) {
	t.Helper()
	for _, job := range []map[string]any{shards, merge} {
		pod := get(job, "spec", "template", "spec")
		for _, c := range append(list(get(pod, "initContainers")), list(get(pod, "containers"))...) {
			req, lim := get(c, "resources", "requests"), get(c, "resources", "limits")
			cpu, _ := get(lim, "cpu").(string)
			n, err := strconv.Atoi(cpu)
			if req == nil || fmt.Sprint(req) != fmt.Sprint(lim) || get(lim, "memory") == nil || err != nil || n < 1 {
				t.Errorf("%v/%v: requests %v, limits %v; want them equal, cpu a whole number, memory set (Guaranteed QoS)", get(job, "metadata", "name"), get(c, "name"), req, lim)
			}
		}
	}
	pod := get(shards, "spec", "template", "spec")
	terms := list(get(pod, "affinity", "podAntiAffinity", "requiredDuringSchedulingIgnoredDuringExecution"))
	labels := fmt.Sprint(get(shards, "spec", "template", "metadata", "labels"))
	if len(terms) != 1 || get(terms[0], "topologyKey") != "kubernetes.io/hostname" || fmt.Sprint(get(terms[0], "labelSelector", "matchLabels")) != labels {
		t.Errorf("anti-affinity %v; want required, on kubernetes.io/hostname, selecting the shards' own labels %s", terms, labels)
	}
	if get(pod, "affinity", "podAntiAffinity", "preferredDuringSchedulingIgnoredDuringExecution") != nil {
		t.Error("a preferred anti-affinity: two shards may land on one node and share its CPUs")
	}
	vols := map[string]any{}
	for _, v := range list(get(pod, "volumes")) {
		vols[get(v, "name").(string)] = v
	}
	hb := list(get(pod, "containers"))[0]
	mounts := map[string]any{}
	for _, m := range list(get(hb, "volumeMounts")) {
		mounts[get(m, "mountPath").(string)] = m
	}
	script := fmt.Sprint(get(hb, "args"))
	cacheDir := ""
	for _, w := range strings.Fields(script) {
		if v, ok := strings.CutPrefix(w, "--cache-dir="); ok {
			cacheDir = v
		}
	}
	if m := mounts[cacheDir]; m == nil || get(vols[get(m, "name").(string)], "persistentVolumeClaim", "claimName") != "halebench-cache" {
		t.Errorf("run's --cache-dir %q is not the halebench-cache claim: every run builds every image cold", cacheDir)
	}
	var keyFile string
	for _, e := range list(get(hb, "env")) {
		if get(e, "name") == "HALEBENCH_CACHE_KEY" {
			t.Error("HALEBENCH_CACHE_KEY as an env value: mount the Secret as a file")
		}
		if get(e, "name") == "HALEBENCH_CACHE_KEY_FILE" {
			keyFile, _ = get(e, "value").(string)
		}
	}
	m := mounts[path.Dir(keyFile)]
	if m == nil || get(m, "readOnly") != true || get(vols[get(m, "name").(string)], "secret", "secretName") == nil {
		t.Errorf("HALEBENCH_CACHE_KEY_FILE %q is not in a Secret mounted read-only", keyFile)
	}
	data, err := os.ReadFile("../../docs/recipes/k8s-indexed-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"ReadWriteMany", "privileged", "docker buildx imagetools inspect docker:", "Guaranteed", "one shard on a node"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the recipe's header does not say %q", want)
		}
	}
}
