package image_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/image"
)

// Builds that run at once on one engine (two verbs' builds, a test beside a
// run) each get their own build context: contexts of one shape — the same
// names, sizes and fixed mtimes, as every bench context halebench writes
// has — never stand in for each other. (With one shared local-source key
// per engine they did: a suite's bench image was built from another
// suite's sources, every step cached.)
func TestConcurrentBuildsKeepTheirContexts(t *testing.T) {
	eng := enginetest.Connect(t)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	bk := enginetest.BuildKit(t, eng)
	b := image.New(eng, bk, &bytes.Buffer{}, image.Options{RunID: "test-sharedkey"})
	mtime := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	const n = 6
	for round := 0; round < 3; round++ {
		var wg sync.WaitGroup
		errs := make([]error, n)
		outs := make([]string, n)
		for i := 0; i < n; i++ {
			dir, out := t.TempDir(), t.TempDir()
			outs[i] = out
			os.MkdirAll(filepath.Join(dir, "src"), 0o755)
			want := fmt.Sprintf("context %d of round %d\n", i, round)
			for p, data := range map[string]string{"Dockerfile": "FROM scratch\nCOPY src/ /src/\n", "src/a.txt": want} {
				if err := os.WriteFile(filepath.Join(dir, p), []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
				os.Chtimes(filepath.Join(dir, p), mtime, mtime)
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				errs[i] = image.SolveLocal(ctx, b, dir, nil, out)
			}()
		}
		wg.Wait()
		for i := 0; i < n; i++ {
			if errs[i] != nil {
				t.Fatalf("round %d, build %d: %v", round, i, errs[i])
			}
			got, err := os.ReadFile(filepath.Join(outs[i], "src", "a.txt"))
			if want := fmt.Sprintf("context %d of round %d\n", i, round); err != nil || string(got) != want {
				t.Errorf("round %d, build %d: built from %q (%v), want its own context %q", round, i, got, err, want)
			}
		}
	}
}
