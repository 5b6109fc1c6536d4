package runner_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// nodeBaseDockerfile is a base image as a user could give it with
// --base-image: halebench's own Debian base plus a 0666 node for char 1:7
// (/dev/full, which the engine's default device rules allow) at the path
// devBench opens for writing.
const nodeBaseDockerfile = `ARG FROM
FROM ${FROM}
RUN mknod -m 0666 /opt/halebench-node c 1 7 && chmod 0666 /opt/halebench-node
`

// The given-base way of issue 36's check 1 (Options.BaseImage is what
// --base-image sets): the c toolchain and its bench image are built on a
// base carrying the node, and a C bench opens it for writing. The open is
// refused (the sampler remounted the image's mounts nodev); unprivileged,
// where no remount can be made, every job is unconfined naming the node.
func TestGivenBaseNodeReachesNoBench(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Minute)
	defer cancel()
	k := newGivenKit(t, ctx, "given-base")
	eng, runID := k.eng, k.runID
	base, err := image.New(eng, k.bk, &k.log, image.Options{RunID: runID}).Base(ctx)
	if err != nil {
		t.Fatalf("halebench's base: %v\n%s", err, k.log.String())
	}
	given := k.build("node-base", nodeBaseDockerfile, map[string]string{}, map[string]string{"FROM": base.Ref})
	c, _ := suite.ByName("c")
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "devnode.c"), []byte(devBench), 0o644)
	b := image.New(eng, k.bk, &k.log, image.Options{RunID: runID, BaseImage: given})
	bi, err := b.BenchImage(ctx, c, []image.Source{{Unit: "devnode", Path: filepath.Join(dir, "devnode.c")}})
	if err != nil {
		t.Fatalf("%v\n%s", err, k.log.String())
	}
	t.Cleanup(func() { _ = eng.RemoveImage(context.Background(), bi.Ref) })
	if tc, err := b.Toolchain(ctx, c); err != nil || !strings.HasPrefix(tc.Base, given+"@") {
		t.Fatalf("the c toolchain was not built on the given base %s: %+v %v", given, tc, err)
	}
	priv, _, err := eng.ProbePrivilege(ctx, bi.Ref, runID, false)
	if err != nil {
		t.Fatal(err)
	}
	trusted := image.TrustedArg(bi.Trusted)
	o := runLangUnit(t, eng, "c", bi, priv, runID, trusted, "devnode", 0)
	if o.Status != "ok" || len(o.Samples) != 1 || o.Samples[0].Check != "refused:13" {
		t.Errorf("%s: the bench reached the given base's device node, or did not run: %s %q %+v", priv, o.Status, o.Detail, o.Samples)
	}
	o = runLangUnit(t, eng, "c", bi, engine.Privilege{Mode: engine.ModeUnprivileged}, runID, trusted, "devnode", 0)
	if o.Status != "unconfined" || !strings.Contains(o.Detail, "/opt/halebench-node (char 1:7, mode 0666)") {
		t.Errorf("unprivileged: the given base's device node was not found and refused: %s %q %+v", o.Status, o.Detail, o.Samples)
	}
}
