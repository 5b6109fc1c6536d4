package evidence_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/evidence"
	"github.com/hale-lang/halebench/orchestrator/harness"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/subject"
)

type testLog struct{ t *testing.T }

func (l testLog) Write(p []byte) (int, error) {
	l.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// A run's report is bundled; the bundle's images are removed from the engine
// (only those); replay loads them back under its own namespace (never under
// their halebench/ tags), every digest checks, the bench runs again on them
// unprivileged and the comparison names both runs.
func TestBundleRemoveReplay(t *testing.T) {
	eng := enginetest.Connect(t)
	ctx, cancel := context.WithTimeout(context.Background(), 40*time.Minute)
	defer cancel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "baselines.json"), []byte(`{"benches": {}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	plan, err := harness.Prepare(harness.Options{
		Suite: "../harness/testdata/suite", Bench: "count", Langs: "c", Subject: "c",
		Iters: 2, Warmup: 0, Timeout: time.Minute, Alpha: judge.DefaultAlpha, MemLimit: 1 << 30, OutCap: 1 << 20,
		Baselines: filepath.Join(dir, "baselines.json"), ResultsDir: filepath.Join(dir, "results"),
		Images: image.Options{Subject: subject.Build{Src: t.TempDir()}}, Log: testLog{t},
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := harness.OnEngine(ctx, eng, plan)
	if err != nil {
		t.Fatal(err)
	}
	reportPath := filepath.Join(dir, "report.json")
	data, _ := json.Marshal(res.Report)
	if err := os.WriteFile(reportPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := evidence.ReadReport(reportPath)
	if err != nil {
		t.Fatal(err)
	}
	bundle := filepath.Join(dir, "evidence.tar")
	f, err := os.Create(bundle)
	if err != nil {
		t.Fatal(err)
	}
	m, err := evidence.Bundle(ctx, eng, rep, reportPath, "../harness/testdata/suite", f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Images) != 4 || m.Files["suite/benches/micro/count.c"] == "" {
		t.Fatalf("manifest: %d images %v, files %v", len(m.Images), m.Images, m.Files)
	}
	// Bench image first: a tag goes, and with it the layers no other image uses.
	for _, ref := range []string{rep.BenchImages["c"].Ref, rep.Images["c"].Ref, rep.Images["go"].Ref, rep.Base.Ref} {
		if err := eng.RemoveImage(ctx, ref); err != nil {
			t.Fatal(err)
		}
		if _, ok, _ := eng.Image(ctx, ref); ok {
			t.Fatalf("%s still in the engine after removal", ref)
		}
	}
	runID := fmt.Sprintf("t%d", time.Now().UnixNano())
	ns := evidence.ReplayPrefix + "/" + runID
	rec, now, err := evidence.Replay(ctx, eng, bundle, evidence.ReplayOptions{ResultsDir: filepath.Join(dir, "replay"), Log: testLog{t}, RunID: runID})
	// Put the engine back as it was (the images under their own tags) and
	// drop the replay's, whatever happened.
	defer func() {
		for ref := range m.Images {
			moved := ns + "/" + strings.TrimPrefix(ref, "halebench/")
			if _, ok, _ := eng.Image(ctx, moved); ok {
				eng.Tag(ctx, moved, ref)
				eng.RemoveImage(ctx, moved)
			}
		}
	}()
	if err != nil {
		t.Fatal(err)
	}
	for ref, id := range m.Images {
		moved := ns + "/" + strings.TrimPrefix(ref, "halebench/")
		if img, ok, _ := eng.Image(ctx, moved); !ok || img.ID != id {
			t.Fatalf("%s not loaded as %s with digest %s", ref, moved, id)
		}
		if _, ok, _ := eng.Image(ctx, ref); ok {
			t.Fatalf("%s was made again: a replay loads only under %s", ref, ns)
		}
	}
	if !strings.HasPrefix(now.BenchImages["c"].Ref, ns+"/") || now.Host.Privilege.Mode != engine.ModeUnprivileged {
		t.Fatalf("the replay ran %s with privilege %+v, want an image under %s, unprivileged", now.BenchImages["c"].Ref, now.Host.Privilege, ns)
	}
	var out bytes.Buffer
	if err := evidence.WriteComparison(&out, rec, now); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "recorded: ") || !strings.Contains(out.String(), "replayed: ") ||
		!strings.Contains(out.String(), "count") || now.BenchImages["c"].Digest != rec.BenchImages["c"].Digest {
		t.Fatalf("comparison:\n%s", out.String())
	}
	t.Logf("\n%s", out.String())
}
