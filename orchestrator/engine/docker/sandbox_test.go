package docker_test

import (
	"context"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/engine/docker"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
)

// A run container: network none, read-only root with tmpfs scratch, a pids
// limit, no host path, pinned, labelled with halebench and its run.
func TestRunContainerSandbox(t *testing.T) {
	eng := enginetest.Connect(t)
	ctx := context.Background()
	img, priv := enginetest.BenchImage(t, eng, "c", "../../runner/testdata/small.c")
	c, err := eng.Create(ctx, engine.Spec{Image: img, Cmd: []string{"true"}, RunID: "test-sandbox", CPUs: "0", Privilege: priv})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Remove()
	s, err := eng.(*docker.Engine).Sandbox(ctx, c.Identity())
	if err != nil {
		t.Fatal(err)
	}
	if s.NetworkMode != "none" || !s.ReadonlyRootfs || s.Tmpfs["/tmp"] == "" || s.PidsLimit <= 0 || s.Mounts != 0 || s.CpusetCpus != "0" {
		t.Fatalf("sandbox %+v", s)
	}
	if s.Labels[engine.LabelApp] != "1" || s.Labels[engine.LabelRun] != "test-sandbox" || s.Labels[engine.LabelOwner] != engine.Owner() {
		t.Fatalf("labels %v", s.Labels)
	}
	// Privileged only as the probe found the host allows; never more.
	if s.Privileged != (priv.Mode == engine.ModePrivileged) {
		t.Fatalf("privileged %v under %s", s.Privileged, priv)
	}
}
