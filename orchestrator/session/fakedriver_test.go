package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/engine"
	_ "github.com/hale-lang/halebench/orchestrator/enginetest" // registers "fake"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/session"
)

// A session opens on any driver through the interface alone: on the fake,
// the lock is its container of the fixed name while the session lasts, the
// host is the driver's, and Close leaves no container.
func TestSessionOnTheFakeDriver(t *testing.T) {
	ctx := context.Background()
	drv, err := engine.Open(ctx, "fake")
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	s, err := session.Open(ctx, session.Options{Kind: "test", Engine: drv, Images: image.Options{NoBuild: true}, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	labels, err := drv.ContainerLabels(ctx, session.LockName)
	if err != nil || labels[session.LabelLockVerb] != "test" || s.Host.CPUModel != "Fake CPU" {
		t.Fatalf("lock labels %v (%v), host %+v", labels, err, s.Host)
	}
	s.Close()
	if _, err := drv.ContainerLabels(ctx, session.LockName); !engine.IsNotFound(err) {
		t.Fatalf("the lock after Close: %v, want not found", err)
	}
	if left, _ := drv.Leftovers(ctx, ""); len(left) != 0 {
		t.Fatalf("left: %v\n%s", left, log.String())
	}
}
