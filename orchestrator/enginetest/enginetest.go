package enginetest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
)

// Connect returns a connected engine or ends the test.
func Connect(t testing.TB) *engine.Engine {
	t.Helper()
	e, err := engine.Connect(context.Background())
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and no engine: %v", err)
		}
		t.Skipf("needs a Docker Engine: %v", err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// BenchImage builds (or finds, by content) the bench image of one language
// holding the given sources, and the privilege the engine grants run
// containers. Every source is unit <file stem>.
func BenchImage(t testing.TB, e *engine.Engine, lang string, paths ...string) (string, engine.Privilege) {
	t.Helper()
	ctx := context.Background()
	bk, err := e.BuildKit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	var log strings.Builder
	b := imagebuild.New(e, bk, &log, imagebuild.Options{RunID: "enginetest"})
	l, ok := toolchain.ByName(lang)
	if !ok {
		t.Fatalf("no language %s", lang)
	}
	var srcs []imagebuild.Source
	for _, p := range paths {
		base := filepath.Base(p)
		srcs = append(srcs, imagebuild.Source{Unit: strings.TrimSuffix(base, filepath.Ext(base)), Path: p})
	}
	bi, err := b.BenchImage(ctx, l, srcs)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	priv, _, err := e.ProbePrivilege(ctx, bi.Ref, "enginetest", false)
	if err != nil {
		t.Fatal(err)
	}
	return bi.Ref, priv
}

// NoLeftovers fails the test if any container of the run is still there.
func NoLeftovers(t testing.TB, e *engine.Engine, runID string) {
	t.Helper()
	ids, err := e.Leftovers(context.Background(), runID)
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) > 0 {
		t.Fatalf("%d halebench containers of run %s left behind: %v", len(ids), runID, ids)
	}
}
