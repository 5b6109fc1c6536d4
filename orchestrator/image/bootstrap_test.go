package image_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/image"
)

// The base is made inside the engine, from scratch (no build cache, a
// bootstrap image assembled anew), by whoever can reach the engine: run as
// root and as a docker-group user, the logged IDs are equal. It is one
// layer, records its rootfs digest and mirror, and is Debian trixie.
func TestSlowBaseBootstrappedInEngine(t *testing.T) {
	enginetest.Slow(t)
	eng := enginetest.Connect(t)
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Minute)
	defer cancel()
	bk := enginetest.BuildKit(t, eng)
	var log bytes.Buffer
	b := image.New(eng, bk, &log, image.Options{Prefix: "halebench-test-boot", NoCache: true})
	base, err := b.Base(ctx)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	t.Logf("base %s id %s rootfs sha256 %s\n%s", base.Ref, base.ID, base.RootfsSHA256, log.String())
	if base.Provenance == nil || base.Provenance.Origin != image.OriginBuilt || len(base.RootfsSHA256) != 64 {
		t.Fatalf("base = %+v, want built here with its rootfs digest", base)
	}
	img, ok, err := eng.Image(ctx, base.Ref)
	if err != nil || !ok || len(img.Layers) != 1 || img.ID != base.ID {
		t.Fatalf("image %s: %+v %v %v, want one layer, id %s", base.Ref, img, ok, err, base.ID)
	}
	out, err := eng.Command(ctx, base.Ref, "test-boot", []string{"cat", "/etc/os-release"})
	if err != nil || !strings.Contains(out, "VERSION_CODENAME=trixie") {
		t.Fatalf("os-release of the base: %q, %v", out, err)
	}
}
