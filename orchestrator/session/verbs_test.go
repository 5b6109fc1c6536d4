package session_test

import (
	"context"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/session"
)

// What the images verb needs: the languages listed and the suite's bench
// sources; an unknown language or a folder with no suite is refused.
func TestImagesNeed(t *testing.T) {
	need, err := session.ImagesNeed("c,go", "../harness/testdata/suite")
	if err != nil || len(need.Langs) != 2 {
		t.Fatalf("%+v %v", need, err)
	}
	for _, l := range need.Langs {
		if srcs := need.Sources(l); l.Name == "c" && len(srcs) == 0 {
			t.Errorf("no c sources in the suite")
		}
	}
	if _, err := session.ImagesNeed("cobol", "../harness/testdata/suite"); err == nil || !strings.Contains(err.Error(), `unknown language "cobol"`) {
		t.Errorf("cobol: %v", err)
	}
	if _, err := session.ImagesNeed("", t.TempDir()); err == nil || !strings.Contains(err.Error(), "no benches/ folder") {
		t.Errorf("no suite: %v", err)
	}
}

// prune: --keep below 1 is refused before the engine is asked; --no-cache
// leaves the build cache alone, said in what prune prints.
func TestPruneVerb(t *testing.T) {
	if err := (session.PruneOptions{Keep: 0}).Check(); err == nil || !strings.Contains(err.Error(), "--keep must be at least 1") {
		t.Errorf("--keep=0: %v", err)
	}
	ctx := context.Background()
	drv, err := engine.Open(ctx, "fake")
	if err != nil {
		t.Fatal(err)
	}
	var log, out strings.Builder
	o := session.PruneOptions{ResultsDir: t.TempDir(), Keep: 1, CacheKeep: 1 << 30, NoCache: true, DryRun: true}
	if err := session.Prune(ctx, drv, o, &log, &out); err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	if !strings.Contains(out.String(), "not pruned (--cache-keep=-1)") || !strings.Contains(out.String(), "would remove 0 image(s)") {
		t.Errorf("prune printed:\n%s", out.String())
	}
}
