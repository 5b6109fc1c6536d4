package runner_test

import (
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
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Minute)
	defer cancel()
	k := newGivenKit(t, ctx, "volume-node")
	eng, runID := k.eng, k.runID
	plain := image.New(eng, k.bk, &k.log, image.Options{RunID: runID})
	base, err := plain.Base(ctx)
	if err != nil {
		t.Fatalf("halebench's base: %v\n%s", err, k.log.String())
	}
	build := func(from, name string) string {
		return k.build(name, volumeNodeDockerfile, map[string]string{"hale": gateLinkHale}, map[string]string{"FROM": from})
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
	hale := build(k.cToolchain(), "volume-hale")
	_, err = k.benchImage("hale", hale, map[string]string{"volnode": volumeNodeBench})
	refused("--hale-image", err)

	// No sampler container of such an image starts, in any privilege mode.
	priv := k.privilege(k.cToolchain())
	for _, p := range []engine.Privilege{priv, {Mode: engine.ModeUnprivileged}} {
		srv, err := runner.StartServer(ctx, eng, runner.ServerSpec{Image: hale, CPUs: "0", Privilege: p, RunID: runID, MemLimit: 1 << 30, Lang: "hale"})
		if err == nil {
			srv.Close()
		}
		refused("a sampler container, "+string(p.Mode), err)
	}
	enginetest.NoLeftovers(t, eng, runID)

	// As a given base: the c toolchain built on it is refused.
	given := build(base.Ref, "volume-base")
	c, _ := suite.ByName("c")
	src := filepath.Join(t.TempDir(), "volnode.c")
	os.WriteFile(src, []byte(volumeNodeBench), 0o644)
	_, err = image.New(eng, k.bk, &k.log, image.Options{RunID: runID, BaseImage: given}).BenchImage(ctx, c, []image.Source{{Unit: "volnode", Path: src}})
	refused("--base-image", err)
	if err != nil { // the toolchain built on the given base, which the refusal names
		if ref := regexp.MustCompile(`halebench/toolchain-c:[0-9a-f]+`).FindString(err.Error()); ref != "" {
			_ = eng.RemoveImage(context.Background(), ref)
		}
	}
	enginetest.NoLeftovers(t, eng, runID)
}
