package runner_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/subject"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// volumeNodeDockerfile is a given image (FROM FROM) carrying a 0666 node
// for char 1:7 at /dev/hbvol/node and VOLUME /dev/hbvol: Docker fills the
// anonymous volume from the image, the node included, and mounts it under
// the container's /dev. With HALE set it is also a hale toolchain (hale
// compiles a .hl file as C).
const volumeNodeDockerfile = `ARG FROM
FROM ${FROM} AS nodes
RUN mkdir /nodes && mknod -m 0666 /nodes/node c 1 7 && chmod 0666 /nodes/node
FROM ${FROM}
COPY hale /usr/local/bin/hale
COPY --from=nodes /nodes/ /dev/hbvol/
VOLUME /dev/hbvol
`

// volumeNodeBench opens the volume's node for writing.
const volumeNodeBench = `#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
    int fd = open("/dev/hbvol/node", O_WRONLY);
    if (fd < 0) { printf("elapsed_ns=1\ncheck=refused:%d\n", errno); return 0; }
    long n = write(fd, "x", 1);
    printf("elapsed_ns=1\ncheck=reached:%ld:%d\n", n, errno);
    return 0;
}
`

// An image that declares a VOLUME holding a device node reaches no bench
// by any path: given as a hale (--hale-image) its toolchain is refused
// naming the volume; given as the base (--base-image) the toolchain built
// on it is refused the same way; and no sampler container of it starts in
// any privilege mode (before, a bench opened and wrote the node with all
// capabilities and unprivileged alike, and the unprivileged run was not
// marked unconfined).
func TestVolumeNodeReachesNoBench(t *testing.T) {
	eng := enginetest.Connect(t)
	bk := enginetest.BuildKit(t, eng)
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Minute)
	defer cancel()
	runID := "test-volume-node-" + time.Now().Format("150405.000")
	tag := strings.ReplaceAll(runID, ".", "-")
	var log bytes.Buffer
	plain := image.New(eng, bk, &log, image.Options{RunID: runID})
	c, _ := suite.ByName("c")
	tc, err := plain.Toolchain(ctx, c)
	if err != nil || tc.Status != image.Available {
		t.Fatalf("c toolchain %+v: %v\n%s", tc, err, log.String())
	}
	base, err := plain.Base(ctx)
	if err != nil {
		t.Fatalf("halebench's base: %v\n%s", err, log.String())
	}
	dir := t.TempDir()
	for name, data := range map[string]string{"Dockerfile": volumeNodeDockerfile, "hale": gateLinkHale, "volnode.c": volumeNodeBench} {
		os.WriteFile(filepath.Join(dir, name), []byte(data), 0o755)
	}
	build := func(from, ref, what string) {
		t.Helper()
		if _, err := bk.Build(ctx, engine.Build{Context: dir, Dockerfile: dir, Args: map[string]string{"FROM": from}, Image: ref, What: what}); err != nil {
			t.Fatalf("building %s: %v", what, err)
		}
		t.Cleanup(func() { _ = eng.RemoveImage(context.Background(), ref) })
	}
	refused := func(what string, err error) {
		t.Helper()
		if err == nil || !errors.Is(err, engine.ErrImageVolume) && !strings.Contains(err.Error(), "declares VOLUME /dev/hbvol") {
			t.Errorf("%s: %v, want a refusal naming VOLUME /dev/hbvol", what, err)
			return
		}
		t.Logf("%s: %v", what, err)
	}

	// As a given hale.
	hale := "halebench-test/volume-hale:" + tag
	build(tc.Ref, hale, "a given hale image with a VOLUME holding a node")
	src := filepath.Join(t.TempDir(), "volnode.hl")
	os.WriteFile(src, []byte(volumeNodeBench), 0o644)
	h, _ := suite.ByName("hale")
	bi, err := image.New(eng, bk, &log, image.Options{RunID: runID, Subject: subject.Build{Image: hale}}).BenchImage(ctx, h, []image.Source{{Unit: "volnode", Path: src}})
	if err == nil {
		t.Cleanup(func() { _ = eng.RemoveImage(context.Background(), bi.Ref) })
	}
	refused("--hale-image", err)

	// No sampler container of such an image starts, in any privilege mode.
	priv, _, err := eng.ProbePrivilege(ctx, tc.Ref, runID, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []engine.Privilege{priv, {Mode: engine.ModeUnprivileged}} {
		srv, err := runner.StartServer(ctx, eng, runner.ServerSpec{Image: hale, CPUs: "0", Privilege: p, RunID: runID, MemLimit: 1 << 30, Lang: "hale"})
		if err == nil {
			srv.Close()
		}
		refused("a sampler container, "+string(p.Mode), err)
	}
	enginetest.NoLeftovers(t, eng, runID)

	// As a given base: the c toolchain built on it is refused.
	given := "halebench-test/volume-base:" + tag
	build(base.Ref, given, "a given base image with a VOLUME holding a node")
	_, err = image.New(eng, bk, &log, image.Options{RunID: runID, BaseImage: given}).BenchImage(ctx, c, []image.Source{{Unit: "volnode", Path: filepath.Join(dir, "volnode.c")}})
	refused("--base-image", err)
	if err != nil { // the toolchain built on the given base, which the refusal names
		if ref := regexp.MustCompile(`halebench/toolchain-c:[0-9a-f]+`).FindString(err.Error()); ref != "" {
			_ = eng.RemoveImage(context.Background(), ref)
		}
	}
	enginetest.NoLeftovers(t, eng, runID)
}
