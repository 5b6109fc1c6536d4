package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"gopkg.in/yaml.v3"
)

// ghStep is one step of a GitHub Actions job, as the runner reads it.
type ghStep struct {
	ID   string            `yaml:"id"`
	If   string            `yaml:"if"`
	Uses string            `yaml:"uses"`
	Run  string            `yaml:"run"`
	Env  map[string]string `yaml:"env"`
	With map[string]string `yaml:"with"`
}

// readmeGitHubYAML is the README's GitHub Actions workflow: the first yaml
// block between the ci-recipe markers.
func readmeGitHubYAML(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(data), "<!-- ci-recipe:begin -->")
	block, _, ok2 := strings.Cut(rest, "<!-- ci-recipe:end -->")
	_, y, ok3 := strings.Cut(block, "```yaml\n")
	y, _, ok4 := strings.Cut(y, "```")
	if !ok || !ok2 || !ok3 || !ok4 {
		t.Fatal("README.md has no ```yaml block between <!-- ci-recipe:begin --> and <!-- ci-recipe:end -->")
	}
	return y
}

// readmeGitHubJob is the README's GitHub workflow's one job: its steps,
// and the job as a map.
func readmeGitHubJob(t *testing.T) ([]ghStep, map[string]any) {
	t.Helper()
	y := readmeGitHubYAML(t)
	var wf struct {
		Jobs map[string]struct {
			Steps []ghStep `yaml:"steps"`
		} `yaml:"jobs"`
	}
	var raw map[string]any
	if err := yaml.Unmarshal([]byte(y), &wf); err != nil || yaml.Unmarshal([]byte(y), &raw) != nil {
		t.Fatalf("the README's GitHub workflow: %v", err)
	}
	if len(wf.Jobs) != 1 {
		t.Fatalf("the README's GitHub workflow has %d jobs; want one", len(wf.Jobs))
	}
	for name, j := range wf.Jobs {
		return j.Steps, get(raw, "jobs", name).(map[string]any)
	}
	return nil, nil
}

// runner is a CI runner's user: not root, in the docker group, no sudo.
type runner struct {
	name     string
	uid, gid uint32
	groups   []uint32
	home     string
	env      []string
}

// newRunner makes a runner's user for the test and removes it (and its
// home) after. It needs root; it skips, saying so, without.
func newRunner(t *testing.T) *runner {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("runs the recipe as a runner's user it creates (useradd): needs root, as the test's CI runs")
	}
	name := fmt.Sprintf("hbrunner%d", os.Getpid())
	if out, err := exec.Command("useradd", "--create-home", "--groups", "docker", "--shell", "/bin/bash", name).CombinedOutput(); err != nil {
		t.Fatalf("useradd %s: %v\n%s", name, err, out)
	}
	t.Cleanup(func() { _ = exec.Command("userdel", "--remove", name).Run() })
	u, err := user.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{name: name, home: u.HomeDir}
	r.uid, r.gid = atou(t, u.Uid), atou(t, u.Gid)
	gids, _ := u.GroupIds()
	for _, g := range gids {
		r.groups = append(r.groups, atou(t, g))
	}
	r.env = append(runnerEnv(t, u), r.seedGo(t)...)
	if _, err := exec.LookPath("sudo"); err == nil {
		if out, err := r.cmd(r.home, nil, "sudo", "-n", "true").CombinedOutput(); err == nil {
			t.Fatalf("%s can sudo: %s", name, out)
		}
	}
	if out, err := r.cmd(r.home, nil, "id").Output(); err != nil || !strings.Contains(string(out), "(docker)") || strings.Contains(string(out), "uid=0") {
		t.Fatalf("the runner's user: %s %v; want not root, in the docker group", out, err)
	}
	return r
}

func atou(t *testing.T, s string) uint32 {
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil {
		t.Fatal(err)
	}
	return uint32(n)
}

// runnerEnv is what a runner's shell has: its home, Go on PATH (as
// setup-go or the runner's image gives it, with this host's Go settings
// and proxies), CI=true.
func runnerEnv(t *testing.T, u *user.User) []string {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatal("no go on PATH: the recipe's make builds halebench with it")
	}
	env := []string{"HOME=" + u.HomeDir, "USER=" + u.Username, "LOGNAME=" + u.Username, "CI=true",
		"PATH=" + filepath.Dir(goBin) + ":/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"}
	out, err := exec.Command("go", "env", "GOPROXY", "GOSUMDB", "GOFLAGS", "GOTOOLCHAIN", "GONOSUMDB", "GOPRIVATE").Output()
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if v != "" {
			env = append(env, []string{"GOPROXY", "GOSUMDB", "GOFLAGS", "GOTOOLCHAIN", "GONOSUMDB", "GOPRIVATE"}[i]+"="+v)
		}
	}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasSuffix(strings.ToLower(k), "_proxy") || k == "SSL_CERT_FILE" || k == "SSL_CERT_DIR" || k == "DOCKER_HOST" {
			env = append(env, kv)
		}
	}
	return env
}

// seedGo gives the runner's user this host's Go caches, as setup-go's
// cache restores them on a runner (a cold Go build of halebench took over
// 10 minutes here under load): the module downloads as a file proxy tried
// first, the build cache's files linked into folders the user owns. It
// returns the environment that points Go at them.
func (r *runner) seedGo(t *testing.T) []string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPROXY").Output()
	if err != nil {
		t.Fatal(err)
	}
	v := strings.Split(strings.TrimSpace(string(out)), "\n")
	cache, proxy := filepath.Join(r.home, ".cache", "go-build"), filepath.Join(r.home, "goproxy")
	steps := [][]string{
		{"mkdir", "-p", filepath.Dir(cache)},
		{"cp", "-rl", v[0], cache},
		// the top-level files (trim.txt) are Go's to rewrite: the user's own
		{"find", cache, "-maxdepth", "1", "-type", "f", "-delete"},
		{"find", filepath.Dir(cache), "-type", "d", "-exec", "chown", r.name + ":", "{}", "+"},
		{"cp", "-rl", filepath.Join(v[1], "cache", "download"), proxy},
	}
	for _, c := range steps {
		if out, err := exec.Command(c[0], c[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("seeding the runner's Go caches: %v: %v\n%s", c, err, out)
		}
	}
	return []string{"GOCACHE=" + cache, "GOPROXY=file://" + proxy + "," + v[2]}
}

// cmd runs as the runner's user, in dir, with its environment and env.
func (r *runner) cmd(dir string, env []string, name string, args ...string) *exec.Cmd {
	c := exec.Command(name, args...)
	c.Dir = dir
	c.Env = append(append([]string(nil), r.env...), env...)
	c.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: r.uid, Gid: r.gid, Groups: r.groups}}
	return c
}

// checkout is actions/checkout's work: a clone of this repository's HEAD,
// owned by the runner's user. (What is not committed is not in it.) The
// whole history, as with fetch-depth: 0: the images' epoch is then the last
// commit touching images/, so make image finds the base an earlier run made;
// in a depth-1 clone it is HEAD's time, and each commit makes a new base.
func (r *runner) checkout(t *testing.T, dir string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := exec.Command("git", "-C", root, "status", "--porcelain", "--untracked-files=no").Output(); len(st) > 0 {
		t.Logf("the checkout is HEAD; uncommitted changes are not in it:\n%s", st)
	}
	for _, c := range [][]string{{"git", "clone", "--quiet", "--no-hardlinks", root, dir}, {"chown", "-R", r.name + ":", dir}} {
		if out, err := exec.Command(c[0], c[1:]...).CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", c, err, out)
		}
	}
}

// mkdir makes a folder the runner's user owns.
func (r *runner) mkdir(t *testing.T, dir string) {
	t.Helper()
	if out, err := r.cmd("/", nil, "mkdir", "-p", dir).CombinedOutput(); err != nil {
		t.Fatalf("mkdir %s as %s: %v\n%s", dir, r.name, err, out)
	}
}

// outputs reads a step's $GITHUB_OUTPUT (name=value lines) and empties it.
func readOutputs(t *testing.T, file string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, l := range strings.Split(string(bytes.TrimSpace(data)), "\n") {
		if k, v, ok := strings.Cut(l, "="); ok {
			out[k] = v
		}
	}
	if err := os.Truncate(file, 0); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return out
}

// removable checks what a job left as its runner's next job finds it: in
// the work tree and the job's own folders nothing owned by root (or any
// user but the runner's), and the runner's `git clean -ffdx` in the work
// tree exits 0 and leaves nothing untracked. A container that ran as root
// and wrote results/ or the cache folder fails both.
func (r *runner) removable(t *testing.T, job, work string, dirs ...string) {
	t.Helper()
	var foreign []string
	for _, d := range append([]string{work}, dirs...) {
		filepath.WalkDir(d, func(p string, e os.DirEntry, err error) error {
			if err != nil {
				foreign = append(foreign, fmt.Sprintf("%s: %v", p, err))
				return nil
			}
			info, err := e.Info()
			if err != nil {
				return nil
			}
			if st, ok := info.Sys().(*syscall.Stat_t); ok && st.Uid != r.uid {
				foreign = append(foreign, fmt.Sprintf("%s (uid %d)", p, st.Uid))
				if e.IsDir() {
					return filepath.SkipDir
				}
			}
			return nil
		})
	}
	if len(foreign) > 0 {
		t.Errorf("the %s job left %d entries its runner's user %s does not own, e.g. %s", job, len(foreign), r.name, strings.Join(foreign[:min(5, len(foreign))], ", "))
	}
	out, err := r.cmd(work, nil, "git", "clean", "-ffdx").CombinedOutput()
	if err != nil {
		t.Errorf("the %s job: git clean -ffdx as %s: %v\n%s", job, r.name, err, out)
	}
	if st, _ := r.cmd(work, nil, "git", "status", "--porcelain", "--ignored").Output(); len(st) > 0 {
		t.Errorf("the %s job: after git clean -ffdx as %s, left:\n%s", job, r.name, st)
	}
	t.Logf("the %s job: nothing left that %s does not own; git clean -ffdx as %s exit 0", job, r.name, r.name)
}
