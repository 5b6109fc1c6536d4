package docker_test

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
)

// What a SIGKILLed run left (its owner is gone) is removed by the next run;
// a live run's containers are not, nor one without a provable owner, which
// the sweep names instead.
func TestRemoveOrphans(t *testing.T) {
	eng := enginetest.Connect(t)
	ctx := context.Background()
	img, _ := enginetest.BenchImage(t, eng, "c", "../../runner/testdata/small.c")
	host, _ := os.Hostname()
	me := engine.SelfIdentity()
	deadID := engine.Identity{Boot: me.Boot, PIDNS: me.PIDNS, PID: 999999999, Start: "1"}
	dead, err := eng.Create(ctx, engine.Spec{Image: img, Cmd: []string{"sleep", "60"}, RunID: "test-orphans",
		Labels: map[string]string{engine.LabelOwner: host + ":999999999", engine.LabelOwnerID: deadID.String()}})
	if err != nil {
		t.Fatal(err)
	}
	ownerless, err := eng.Create(ctx, engine.Spec{Image: img, Cmd: []string{"sleep", "60"}, RunID: "test-orphans",
		Labels: map[string]string{engine.LabelOwner: host + ":999999999", engine.LabelOwnerID: ""}})
	if err != nil {
		t.Fatal(err)
	}
	defer ownerless.Remove()
	live, err := eng.Create(ctx, engine.Spec{Image: img, Cmd: []string{"sleep", "60"}, RunID: "test-orphans"})
	if err != nil {
		t.Fatal(err)
	}
	defer live.Remove()
	sw, err := eng.RemoveOrphans(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ids, _ := eng.Leftovers(ctx, "test-orphans")
	if len(ids) != 2 || !contains(ids, live.Identity()) || !contains(ids, ownerless.Identity()) {
		t.Fatalf("left %v, want the live run's %s and the owner-less %s (dead one %s)", ids, live.Identity(), ownerless.Identity(), dead.Identity())
	}
	said := false
	for _, l := range sw.Left {
		said = said || l[:12] == ownerless.Identity()[:12]
	}
	if !said {
		t.Fatalf("the owner-less container was left silently: %v", sw.Left)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// A live run's containers survive a sweep made from another pid namespace,
// where the owner's pid means nothing (or another process).
func TestLiveRunSurvivesSweepFromAnotherPIDNamespace(t *testing.T) {
	if os.Getenv("HALEBENCH_SWEEP_CHILD") == "1" {
		eng := enginetest.Connect(t)
		if _, err := eng.RemoveOrphans(context.Background()); err != nil {
			t.Fatal(err)
		}
		return
	}
	if _, err := exec.LookPath("unshare"); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatal("CI=true and no unshare(1)")
		}
		t.Skip("needs unshare(1) (util-linux) to make a pid namespace")
	}
	eng := enginetest.Connect(t)
	ctx := context.Background()
	img, _ := enginetest.BenchImage(t, eng, "c", "../../runner/testdata/small.c")
	live, err := eng.Create(ctx, engine.Spec{Image: img, Cmd: []string{"sleep", "60"}, RunID: "test-orphans-pidns"})
	if err != nil {
		t.Fatal(err)
	}
	defer live.Remove()
	// Not root (a CI runner's user): a user namespace of its own makes the
	// pid namespace, where the host allows one.
	args := []string{"--pid", "--fork", "--mount-proc"}
	if os.Geteuid() != 0 {
		args = append([]string{"--user", "--map-root-user"}, args...)
	}
	cmd := exec.Command("unshare", append(args, os.Args[0], "-test.run=^TestLiveRunSurvivesSweepFromAnotherPIDNamespace$", "-test.v")...)
	cmd.Env = append(os.Environ(), "HALEBENCH_SWEEP_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("sweep in a new pid namespace: %v\n%s", err, out)
	}
	ids, _ := eng.Leftovers(ctx, "test-orphans-pidns")
	if len(ids) != 1 || ids[0] != live.Identity() {
		t.Fatalf("the sweep from another pid namespace removed a live run's container: left %v\n%s", ids, out)
	}
}
