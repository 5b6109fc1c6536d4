package session_test

import (
	"context"
	"errors"
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
	// The host record names the driver that measured, as its Features say.
	if err != nil || labels[session.LabelLockVerb] != "test" || s.Host.CPUModel != "Fake CPU" || s.Host.Driver != "fake" {
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

// noArchives is the fake, saying it cannot save or load image archives.
type noArchives struct{ engine.Driver }

func (d noArchives) Features(ctx context.Context) (engine.Features, error) {
	f, err := d.Driver.Features(ctx)
	f.With(engine.FeatArchives, false, "this engine holds no layers")
	return f, err
}

// A session asks the engine's features once: a verb that builds is
// refused at Open, naming the feature, on an engine that cannot (here one
// with no image archives to normalise images with), and the lock it took
// is released; the features are said on the log.
func TestSessionRefusesWhatTheEngineLacks(t *testing.T) {
	ctx := context.Background()
	fake, err := engine.Open(ctx, "fake")
	if err != nil {
		t.Fatal(err)
	}
	drv := noArchives{fake}
	var log strings.Builder
	_, err = session.Open(ctx, session.Options{Kind: "test", Engine: drv, Log: &log})
	var missing *engine.MissingFeatureError
	if !errors.As(err, &missing) || missing.Feature != engine.FeatArchives || !strings.Contains(err.Error(), "building images needs image-archives") {
		t.Fatalf("a building session on the fake: %v; want it refused for image-archives", err)
	}
	if !strings.Contains(log.String(), "engine: fake driver, API fake, cgroup v1") {
		t.Errorf("the features are not said:\n%s", log.String())
	}
	if left, _ := drv.Leftovers(ctx, ""); len(left) != 0 {
		t.Fatalf("left: %v", left)
	}
}
