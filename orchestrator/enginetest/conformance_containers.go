package enginetest

import (
	"bufio"
	"context"
	"errors"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// probe is the suite's program in its image, with args.
func probe(args ...string) []string { return append([]string{"/conformance"}, args...) }

// labelSuite marks what the suite made, beside halebench's own labels.
const labelSuite = "org.halebench.conformance"

// create makes a container of s in the suite's run, or ends the test; it
// is removed when the test ends.
func (c *conf) create(t *testing.T, s engine.Spec) engine.Container {
	t.Helper()
	s.RunID = c.run
	if s.Image == "" {
		s.Image = c.img
	}
	ct, err := c.d.Create(context.Background(), s)
	if err != nil {
		t.Fatalf("Create %v: %v", s.Cmd, err)
	}
	t.Cleanup(func() { ct.Remove() })
	return ct
}

// attached runs a container of s with stdin attached: stdin written, then
// closed; it returns what came out on stdout and the exit code. Where the
// driver runs no program, stdin may be closed already: that is no error.
func (c *conf) attached(t *testing.T, s engine.Spec, stdin string) (string, int64, engine.Container) {
	t.Helper()
	s.Stdin = true
	ct := c.create(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	in, out, err := ct.Attach(ctx)
	if err != nil {
		t.Fatalf("Attach: %v", err)
	}
	if err := ct.Start(ctx); err != nil {
		t.Fatalf("Start %v: %v", s.Cmd, err)
	}
	if _, err := io.WriteString(in, stdin); err != nil && c.f.Has[engine.FeatPrograms] {
		t.Fatalf("writing to stdin: %v", err)
	}
	in.Close()
	got := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(out)
		got <- string(b)
	}()
	var stdout string
	select {
	case stdout = <-got:
	case <-ctx.Done():
		t.Fatalf("%v: stdout did not end within a minute of stdin's end", s.Cmd)
	}
	code, err := ct.Wait(ctx)
	if err != nil {
		t.Fatalf("Wait %v: %v", s.Cmd, err)
	}
	return stdout, code, ct
}

// life: a missing image is not found; a container is labelled as its
// run's and this process's, listed, started, waited for and removed (twice
// is no error), then gone.
func (c *conf) life(t *testing.T) {
	ctx := context.Background()
	_, err := c.d.Create(ctx, engine.Spec{Image: "halebench-conformance/none:" + c.run, Cmd: []string{"true"}, RunID: c.run})
	if err == nil || !engine.IsNotFound(err) {
		t.Errorf("Create from a missing image: %v; want an error engine.IsNotFound sees", err)
	}
	ct := c.create(t, engine.Spec{Cmd: []string{"true"}, Labels: map[string]string{labelSuite: "life"}})
	l, err := c.d.ContainerLabels(ctx, ct.Identity())
	if err != nil || l[engine.LabelApp] != "1" || l[engine.LabelRun] != c.run || l[labelSuite] != "life" ||
		l[engine.LabelOwner] != engine.Owner() || l[engine.LabelOwnerID] != engine.SelfIdentity().String() {
		t.Errorf("labels %v (%v): want halebench's, the run's, the owner's and the spec's", l, err)
	}
	if ids, err := c.d.Leftovers(ctx, c.run); err != nil || !slices.Contains(ids, ct.Identity()) {
		t.Errorf("Leftovers(%s) = %v (%v), want %s among them", c.run, ids, err, ct.Identity())
	}
	if err := ct.Start(ctx); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if code, err := ct.Wait(wctx); err != nil || code != 0 {
		t.Errorf("Wait for true: %d, %v", code, err)
	}
	if err := ct.Remove(); err != nil {
		t.Fatal(err)
	}
	if err := ct.Remove(); err != nil {
		t.Errorf("removing a container twice: %v, want no error", err)
	}
	if _, err := c.d.ContainerLabels(ctx, ct.Identity()); !engine.IsNotFound(err) {
		t.Errorf("labels of a removed container: %v, want not found", err)
	}
	if ids, _ := c.d.Leftovers(ctx, c.run); slices.Contains(ids, ct.Identity()) {
		t.Error("a removed container is still listed")
	}
}

// nameOnce: a name is made at most once (the engine's lock is such a
// name), found by ContainerLabels, and free again once removed.
func (c *conf) nameOnce(t *testing.T) {
	ctx := context.Background()
	name := "halebench-conformance-" + c.run
	first := c.create(t, engine.Spec{Name: name, Cmd: []string{"true"}, Labels: map[string]string{labelSuite: "first"}})
	if second, err := c.d.Create(ctx, engine.Spec{Image: c.img, Name: name, RunID: c.run, Cmd: []string{"true"}}); err == nil {
		second.Remove()
		t.Fatal("a second container of one name was made")
	}
	if l, err := c.d.ContainerLabels(ctx, name); err != nil || l[labelSuite] != "first" {
		t.Errorf("labels by name: %v (%v), want the first holder's", l, err)
	}
	first.Remove()
	c.create(t, engine.Spec{Name: name, Cmd: []string{"true"}}).Remove()
}

// removal: RemoveRun takes one run's containers and no other's; the
// orphan sweep leaves a live owner's; RemoveOwned takes this process's.
func (c *conf) removal(t *testing.T) {
	ctx := context.Background()
	other := c.run + "-other"
	for range 2 {
		if _, err := c.d.Create(ctx, engine.Spec{Image: c.img, Cmd: []string{"true"}, RunID: other}); err != nil {
			t.Fatal(err)
		}
	}
	mine := c.create(t, engine.Spec{Cmd: []string{"true"}})
	if n, err := c.d.RemoveRun(ctx, other); n != 2 || err != nil {
		t.Errorf("RemoveRun: %d, %v; want the run's 2", n, err)
	}
	if ids, _ := c.d.Leftovers(ctx, other); len(ids) != 0 {
		t.Errorf("after RemoveRun: %v left", ids)
	}
	if _, err := c.d.RemoveOrphans(ctx); err != nil {
		t.Fatal(err)
	}
	if ids, _ := c.d.Leftovers(ctx, c.run); !slices.Contains(ids, mine.Identity()) {
		t.Error("the orphan sweep removed a container whose owner (this process) is alive")
	}
	if n, err := c.d.RemoveOwned(ctx); n < 1 || err != nil {
		t.Errorf("RemoveOwned: %d, %v; want this process's container removed", n, err)
	}
	if ids, _ := c.d.Leftovers(ctx, c.run); slices.Contains(ids, mine.Identity()) {
		t.Error("RemoveOwned left this process's container")
	}
}

// attach: stdin reaches the program and its stdout comes back, then ends.
func (c *conf) attach(t *testing.T) {
	const text = "hello, conformance\n"
	out, code, _ := c.attached(t, engine.Spec{Cmd: probe("cat")}, text)
	want := text
	if !c.f.Has[engine.FeatPrograms] {
		want = ""
		t.Logf("the %s driver has no programs: only that stdout ends, empty, is checked", c.f.Driver)
	}
	if out != want || code != 0 {
		t.Errorf("cat: stdout %q, exit %d; want %q, 0", out, code, want)
	}
}

// exitAndStderr: a program's exit code, and the tail of its stderr.
func (c *conf) exitAndStderr(t *testing.T) {
	if c.lacks(t, engine.FeatPrograms) {
		return
	}
	_, code, ct := c.attached(t, engine.Spec{Cmd: probe("exit", "3", "said on stderr")}, "")
	if code != 3 || !strings.Contains(ct.Stderr(), "said on stderr") {
		t.Errorf("exit 3: code %d, stderr %q", code, ct.Stderr())
	}
}

// command: a throw-away container's stdout, an exit that is not 0 an
// error carrying its stderr, a missing image an error.
func (c *conf) command(t *testing.T) {
	ctx := context.Background()
	if _, err := c.d.Command(ctx, "halebench-conformance/none:"+c.run, c.run, []string{"true"}); err == nil {
		t.Error("Command in a missing image: no error")
	}
	if c.lacks(t, engine.FeatPrograms) {
		return
	}
	if out, err := c.d.Command(ctx, c.img, c.run, probe("args", "a", "b")); out != "a b\n" || err != nil {
		t.Errorf("Command: %q, %v", out, err)
	}
	if _, err := c.d.Command(ctx, c.img, c.run, probe("exit", "4", "the reason")); err == nil || !strings.Contains(err.Error(), "the reason") {
		t.Errorf("Command exiting 4: %v, want an error with its stderr", err)
	}
}

// pinning: a container's program runs on its cpuset alone.
func (c *conf) pinning(t *testing.T) {
	if c.lacks(t, engine.FeatPrograms) || c.lacks(t, engine.FeatPinning) {
		return
	}
	info, err := c.d.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, cpu := range slices.Compact([]string{"0", strconv.Itoa(info.LogicalCPUs - 1)}) {
		out, code, _ := c.attached(t, engine.Spec{Cmd: probe("cpus"), CPUs: cpu}, "")
		if strings.TrimSpace(out) != cpu || code != 0 {
			t.Errorf("pinned to %s: runs on %q (exit %d)", cpu, out, code)
		}
	}
}

// memoryLimit: Spec.Memory is the container's cgroup limit.
func (c *conf) memoryLimit(t *testing.T) {
	if c.lacks(t, engine.FeatPrograms) || c.lacks(t, engine.FeatMemoryLimit) {
		return
	}
	const limit = 96 << 20
	out, code, _ := c.attached(t, engine.Spec{Cmd: probe("memlimit"), Memory: limit}, "")
	if strings.TrimSpace(out) != strconv.Itoa(limit) || code != 0 {
		t.Errorf("memory limit %d: the cgroup says %q (exit %d)", limit, out, code)
	}
}

// sharedIPC: a container made with ShmOf starts only beside a running
// ShareShm container, and sees what that one wrote in /dev/shm.
func (c *conf) sharedIPC(t *testing.T) {
	if c.lacks(t, engine.FeatSharedIPC) {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	gone := c.create(t, engine.Spec{Cmd: []string{"true"}, ShareShm: true})
	if err := gone.Start(ctx); err != nil {
		t.Fatal(err)
	}
	gone.Wait(ctx)
	if late, err := c.d.Create(ctx, engine.Spec{Image: c.img, RunID: c.run, Cmd: []string{"true"}, ShmOf: gone.Identity()}); err == nil {
		if err := late.Start(ctx); err == nil {
			t.Error("a container joined the /dev/shm of one that is not running")
		}
		late.Remove()
	}
	const text = "shared through /dev/shm"
	donor := c.create(t, engine.Spec{Cmd: probe("serve", text), ShareShm: true, Stdin: true})
	in, out, err := donor.Attach(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	if err := donor.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if !c.lacks(t, engine.FeatPrograms) {
		if line, err := bufio.NewReader(out).ReadString('\n'); line != "ready\n" {
			t.Fatalf("the donor said %q (%v), want ready", line, err)
		}
	}
	got, code, _ := c.attached(t, engine.Spec{Cmd: probe("shm-read"), ShmOf: donor.Identity()}, "")
	if c.f.Has[engine.FeatPrograms] && (got != text+"\n" || code != 0) {
		t.Errorf("the joiner read %q from /dev/shm (exit %d), want %q", got, code, text)
	}
}

// volume: an image that declares a VOLUME runs no container.
func (c *conf) volume(t *testing.T) {
	ctx := context.Background()
	ref := "halebench-conformance/volume:" + c.run
	if err := c.d.Import(ctx, rootfs(t, nil), ref, []string{"VOLUME /data"}); err != nil {
		t.Fatal(err)
	}
	defer c.d.RemoveImage(ctx, ref)
	ct, err := c.d.Create(ctx, engine.Spec{Image: ref, RunID: c.run, Cmd: []string{"true"}})
	if err == nil {
		ct.Remove()
	}
	if !errors.Is(err, engine.ErrImageVolume) || !strings.Contains(err.Error(), "/data") {
		t.Errorf("Create from an image with VOLUME /data: %v, want engine.ErrImageVolume naming it", err)
	}
}

// privilege: the probe takes the strongest candidate the engine grants,
// privileged exactly when Features says so, with one refusal per stronger
// candidate; asked for none, it gives unprivileged; a missing image fails.
func (c *conf) privilege(t *testing.T) {
	ctx := context.Background()
	p, tried, err := c.d.ProbePrivilege(ctx, c.img, c.run, false)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(engine.Candidates(false), func(q engine.Privilege) bool { return reflect.DeepEqual(p, q) })
	if i < 0 || len(tried) != i {
		t.Errorf("probe: %v after %d refusals; want a candidate, after one refusal per stronger one", p, len(tried))
	}
	if (p.Mode == engine.ModePrivileged) != c.f.Has[engine.FeatPrivileged] {
		t.Errorf("probe gave %v, but Features says privileged=%v (%s)", p, c.f.Has[engine.FeatPrivileged], c.f.Missing[engine.FeatPrivileged])
	}
	if p, tried, err := c.d.ProbePrivilege(ctx, c.img, c.run, true); err != nil || p.Mode != engine.ModeUnprivileged || len(tried) != 0 {
		t.Errorf("probe asked for no privilege: %v, %v, %v", p, tried, err)
	}
	if _, _, err := c.d.ProbePrivilege(ctx, "halebench-conformance/none:"+c.run, c.run, false); err == nil {
		t.Error("probe on a missing image: no error")
	}
}
