package session

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
)

var _ Engine = (*enginetest.Engine)(nil)

// Run on the fake driver: a dry run removes nothing and says what would
// go; the run itself removes, by its tags, only the image no report names
// that is not its repository's latest build nor used by a container, leaves
// other people's images and the toolchains it keeps alone, and prunes the
// build cache down to the limit, oldest records first.
func TestRunOnFakeEngine(t *testing.T) {
	f := &enginetest.Engine{}
	named := f.Add("halebench/bench-c:1111", nil, 100)
	old := f.Add("halebench/bench-c:2222", nil, 200)
	f.Tag(context.Background(), "halebench/bench-c:2222", "halebench/bench-c:2222-extra")
	used := f.Add("halebench/bench-c:3333", nil, 300)
	f.Use("halebench/bench-c:3333", 1)
	latest := f.Add("halebench/bench-c:4444", nil, 400)
	theirs := f.Add("someone/else:1", nil, 500)
	tc := f.Add("halebench/toolchain-go:5555", nil, 600)
	f.SetCache(10, 20, 30)
	results := t.TempDir()
	if err := os.WriteFile(filepath.Join(results, "run-x.json"), []byte(`{"images":{"c":"halebench/bench-c:1111@`+named+`"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := PruneOptions{ResultsDir: results, Keep: 1, CacheKeep: 30, DryRun: true}
	p, err := Run(context.Background(), f, opts)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	Print(&out, p, true)
	if len(f.Removed) != 0 || !strings.Contains(out.String(), "would remove") || !strings.Contains(out.String(), "halebench/bench-c:2222") {
		t.Fatalf("dry run removed %v and printed:\n%s", f.Removed, out.String())
	}
	opts.DryRun = false
	if p, err = Run(context.Background(), f, opts); err != nil {
		t.Fatal(err)
	}
	if want := []string{"halebench/bench-c:2222", "halebench/bench-c:2222-extra"}; !slices.Equal(f.Removed, want) {
		t.Errorf("removed %v, want %v", f.Removed, want)
	}
	for id, want := range map[string]bool{named: true, old: false, used: true, latest: true, theirs: true, tc: true} {
		if _, ok, _ := f.Image(context.Background(), id); ok != want {
			t.Errorf("image %s there: %v, want %v", id[:15], ok, want)
		}
	}
	if n, size, _, _ := f.BuildCacheUsage(context.Background()); !p.Cache.Prune || p.Cache.Freed != 30 || n != 1 || size != 30 {
		t.Errorf("cache plan %+v, left %d records of %d bytes; want 30 bytes freed, one record of 30 left", p.Cache, n, size)
	}
}
