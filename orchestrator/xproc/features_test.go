package xproc_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/suite"
	"github.com/hale-lang/halebench/orchestrator/xproc"
)

// noIPC is the fake, saying it cannot share /dev/shm between containers.
type noIPC struct{ *enginetest.Engine }

func (d noIPC) Features(ctx context.Context) (engine.Features, error) {
	f, err := d.Engine.Features(ctx)
	f.With(engine.FeatSharedIPC, false, "no IPC namespace to share")
	return f, err
}

// xproc asks the engine for shared-ipc before it builds or runs anything,
// and is refused naming it where the engine has none; nothing is left.
func TestXprocNeedsSharedIPC(t *testing.T) {
	drv := noIPC{&enginetest.Engine{}}
	langs, err := suite.Parse("c")
	if err != nil {
		t.Fatal(err)
	}
	o := xproc.Options{Suite: "../..", Langs: langs, Subject: "c", Variants: []string{"small"}, Iters: 1, Timeout: time.Minute,
		ResultsDir: t.TempDir(), Images: image.Options{NoBuild: true}}
	_, _, err = xproc.RunOnEngine(context.Background(), drv, o)
	var missing *engine.MissingFeatureError
	if !errors.As(err, &missing) || missing.Feature != engine.FeatSharedIPC || !strings.Contains(err.Error(), "no IPC namespace to share") {
		t.Fatalf("xproc on an engine without shared-ipc: %v", err)
	}
	if len(drv.Builds) != 0 {
		t.Errorf("built %d images before refusing", len(drv.Builds))
	}
	if left, _ := drv.Leftovers(context.Background(), ""); len(left) != 0 {
		t.Errorf("left: %v", left)
	}
}
