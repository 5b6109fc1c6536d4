package session

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/collect"
	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

func TestKind(t *testing.T) {
	cases := []struct {
		img        engine.StoredImage
		kind, repo string
	}{
		{engine.StoredImage{Tags: []string{"halebench/bench-c:abc"}}, "bench", "halebench/bench-c"},
		{engine.StoredImage{Tags: []string{"halebench/toolchain-rust:1"}}, "toolchain", "halebench/toolchain-rust"},
		{engine.StoredImage{Tags: []string{"halebench/base:trixie"}}, "", ""},
		{engine.StoredImage{Tags: []string{"halebench/bench-c:abc", "mine/keep:1"}}, "", ""},
		{engine.StoredImage{Tags: []string{"halebench-w12/m:1"}}, "", ""},
		{engine.StoredImage{Labels: map[string]string{image.LabelKind: "bench", image.LabelLang: "go"}}, "bench", "halebench/bench-go"},
		{engine.StoredImage{}, "", ""},
		{engine.StoredImage{Tags: []string{"localhost:5000/halebench/bench-c:x"}}, "", ""},
	}
	for _, c := range cases {
		if k, r := Kind(c.img); k != c.kind || r != c.repo {
			t.Errorf("Kind(%v, %v) = %q %q, want %q %q", c.img.Tags, c.img.Labels, k, r, c.kind, c.repo)
		}
	}
}

func TestDecide(t *testing.T) {
	at := func(m int) time.Time { return time.Date(2026, 12, 3, 8, m, 0, 0, time.UTC) }
	img := func(id, tag string, m int, extra ...func(*engine.StoredImage)) engine.StoredImage {
		s := engine.StoredImage{ID: id, Created: at(m), Size: 1000, SharedSize: 900}
		if tag != "" {
			s.Tags = []string{tag}
		}
		for _, f := range extra {
			f(&s)
		}
		return s
	}
	scoped := func(s string) func(*engine.StoredImage) {
		return func(i *engine.StoredImage) {
			i.Labels = map[string]string{image.LabelKind: "bench", image.LabelLang: "c", image.LabelScope: s}
		}
	}
	images := []engine.StoredImage{
		img("sha256:c1", "halebench/bench-c:1", 1),
		img("sha256:c2", "halebench/bench-c:2", 2),
		img("sha256:c3", "halebench/bench-c:3", 3),
		img("sha256:c4", "", 4, scoped("")), // untagged by a newer build of its tag
		img("sha256:c5", "halebench/bench-c:5", 5),
		img("sha256:g1", "halebench/toolchain-go:1", 1, func(i *engine.StoredImage) { i.Containers = 1 }),
		img("sha256:g2", "halebench/toolchain-go:2", 2),
		img("sha256:x", "someone/else:1", 0),
		img("sha256:y", "", 0),
		img("sha256:s1", "halebench/bench-c:s1", 6, scoped("t")),
		img("sha256:s2", "halebench/bench-c:s2", 7, scoped("t")),
	}
	named := map[string]string{"halebench/bench-c:2": "run-a.json", "sha256:c3": "run-b.json"}
	got := map[string]string{}
	for _, im := range Decide(images, nil, named, PruneOptions{Keep: 1}) {
		v := "keep: " + im.Reason
		if im.Remove {
			v = "remove"
		}
		got[im.ID] = v
	}
	want := map[string]string{
		"sha256:c1": "remove",
		"sha256:c2": "keep: named by run-a.json",
		"sha256:c3": "keep: named by run-b.json",
		"sha256:c4": "remove",
		"sha256:c5": "remove",
		"sha256:s1": "remove",
		"sha256:s2": "keep: latest build",
		"sha256:g1": "keep: used by a container",
		"sha256:g2": "keep: latest build",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("unscoped:\n got %v\nwant %v", got, want)
	}

	// Scoped: only the scope's bench images are looked at.
	got = map[string]string{}
	for _, im := range Decide(images, nil, named, PruneOptions{Keep: 1, Scope: "t"}) {
		got[im.ID] = fmt.Sprint(im.Remove)
	}
	if fmt.Sprint(got) != fmt.Sprint(map[string]string{"sha256:s1": "true", "sha256:s2": "false"}) {
		t.Errorf("scoped: remove = %v, want only the older scope image removed", got)
	}

	// --keep=2 keeps the two newest of each repository.
	for _, im := range Decide(images, nil, nil, PruneOptions{Keep: 2}) {
		if (im.ID == "sha256:s2" || im.ID == "sha256:s1") && im.Remove {
			t.Errorf("--keep=2 removes %s", im.ID)
		}
		if im.ID == "sha256:c5" && !im.Remove {
			t.Errorf("--keep=2 keeps the third newest, %s", im.ID)
		}
		if im.ID == "sha256:c5" && im.Unique != 100 {
			t.Errorf("unique size %d, want 100", im.Unique)
		}
	}
}

func TestNamed(t *testing.T) {
	dir := t.TempDir()
	r := report.Report{Schema: report.Schema,
		BenchImages: map[string]report.BenchImage{"c": {Ref: "halebench/bench-c:aa", ID: "sha256:11"}},
		Images:      map[string]report.Toolchain{"c": {Ref: "halebench/toolchain-c:bb", Base: "halebench/base:trixie@sha256:22"}}}
	if err := report.WriteFile(filepath.Join(dir, "run-1.json"), &r); err != nil {
		t.Fatal(err)
	}
	named, err := Named(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"halebench/bench-c:aa", "sha256:11", "halebench/toolchain-c:bb", "halebench/base:trixie", "sha256:22"} {
		if named[k] != "run-1.json" {
			t.Errorf("%s not named (%v)", k, named)
		}
	}
	os.WriteFile(filepath.Join(dir, "run-2.json"), []byte("{half"), 0o644)
	if _, err := Named(dir); err == nil || !strings.Contains(err.Error(), "run-2.json") {
		t.Errorf("a broken report gives %v, want an error naming it", err)
	}
	// A link under results/ is refused, not followed: prune reads what lies
	// there, through the one checked reader.
	os.Remove(filepath.Join(dir, "run-2.json"))
	if err := os.Symlink(filepath.Join(dir, "run-1.json"), filepath.Join(dir, "run-3.json")); err != nil {
		t.Fatal(err)
	}
	if _, err := Named(dir); err == nil || !strings.Contains(err.Error(), "run-3.json") || !strings.Contains(err.Error(), "symlink") {
		t.Errorf("a linked report gives %v, want a refusal naming it", err)
	}
	if maxStoredBytes != report.MaxFileBytes {
		t.Errorf("prune reads stored files up to %d bytes, a report may be %d", maxStoredBytes, report.MaxFileBytes)
	}
}

// guard is the engine for the tests against the real engine: removals
// are allowed only of the images the test built, and never of the build
// cache.
type guard struct {
	engine.Driver
	t       *testing.T
	allowed map[string]bool
	removed []string
}

func (g *guard) RemoveImage(ctx context.Context, ref string) error {
	if !g.allowed[ref] {
		g.t.Fatalf("prune asked to remove %s, which this test did not build", ref)
	}
	g.removed = append(g.removed, ref)
	return g.Driver.RemoveImage(ctx, ref)
}

func (g *guard) PruneBuildCache(context.Context, int64) (int64, error) {
	g.t.Fatal("prune asked to prune the shared build cache")
	return 0, nil
}

// TestPruneAfterTwoBuilds builds bench images from scratch suites under a
// scope label of this test's own, then prunes that scope: the older build
// stays while a report names it, and goes once the report names the newer;
// a bench image of another scope is never looked at. The engine's shared
// build cache is only measured (the plan says what it would do).
func TestPruneAfterTwoBuilds(t *testing.T) {
	eng := enginetest.Connect(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	bk := enginetest.BuildKit(t, eng)
	// Python: the smallest toolchain, so the three builds (each saved and
	// loaded whole by the normaliser) cost least; nothing here runs them.
	py, _ := suite.ByName("python")
	stamp := time.Now().UnixNano()
	scope, other := fmt.Sprintf("prune-test-%d", stamp), fmt.Sprintf("prune-test-other-%d", stamp)
	g := &guard{Driver: eng, t: t, allowed: map[string]bool{}}
	build := func(scope string, n int) image.BenchImage {
		suite := t.TempDir()
		src := filepath.Join(suite, "prunetest.py")
		body := fmt.Sprintf("print(\"elapsed_ns=%d\")  # %d\n", n, stamp)
		if err := os.WriteFile(src, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		var log bytes.Buffer
		b := image.New(eng, bk, &log, image.Options{RunID: "prune-test", Scope: scope})
		bi, err := b.BenchImage(ctx, py, []image.Source{{Unit: "prunetest", Path: src}})
		if err != nil {
			t.Fatalf("%v\n%s", err, log.String())
		}
		g.allowed[bi.Ref] = true
		t.Cleanup(func() { eng.RemoveImage(context.Background(), bi.Ref) })
		return bi
	}
	older := build(scope, 1)
	newer := build(scope, 2)
	elsewhere := build(other, 3)
	if img, ok, _ := eng.Image(ctx, newer.Ref); !ok || img.Labels[image.LabelScope] != scope || img.Labels[image.LabelKind] != "bench" {
		t.Fatalf("bench image labels = %v", img.Labels)
	}

	results := t.TempDir()
	name := func(bi image.BenchImage) {
		r := report.Report{Schema: report.Schema, BenchImages: map[string]report.BenchImage{"python": collect.BenchImage(bi)}}
		if err := report.WriteFile(filepath.Join(results, "run-latest.json"), &r); err != nil {
			t.Fatal(err)
		}
	}
	exists := func(ref string) bool {
		_, ok, err := eng.Image(ctx, ref)
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}

	// The report names the older build; the newer is the latest: both stay.
	name(older)
	p, err := Run(ctx, g, PruneOptions{ResultsDir: results, Keep: 1, Scope: scope, CacheKeep: 1})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	Print(&out, p, false)
	t.Logf("first prune:\n%s", out.String())
	if len(p.Images) != 2 || len(g.removed) != 0 || !exists(older.Ref) || !exists(newer.Ref) {
		t.Fatalf("first prune removed %v; plan:\n%s", g.removed, out.String())
	}
	if p.Cache.Considered || p.Cache.Prune || !strings.Contains(p.Cache.Why, "scope") {
		t.Errorf("a scoped prune plans the build cache: %+v", p.Cache)
	}

	// The report now names the newer build: the older goes.
	name(newer)
	p, err = Run(ctx, g, PruneOptions{ResultsDir: results, Keep: 1, Scope: scope, CacheKeep: 1})
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	Print(&out, p, false)
	t.Logf("second prune:\n%s", out.String())
	if fmt.Sprint(g.removed) != fmt.Sprint([]string{older.Ref}) || exists(older.Ref) {
		t.Fatalf("second prune removed %v (older still there: %v); want %s", g.removed, exists(older.Ref), older.Ref)
	}
	if !exists(newer.Ref) || !exists(elsewhere.Ref) {
		t.Fatalf("second prune removed the named build or another scope's image")
	}
	if !strings.Contains(out.String(), "removed  "+older.Ref) || !strings.Contains(out.String(), "removed 1 image(s)") {
		t.Errorf("output does not say what was freed:\n%s", out.String())
	}

	// The build cache's part, unscoped, as a plan only: a dry run says it
	// would prune down to the limit and removes nothing (the guard fails
	// the test on any removal of an image it did not build, or the cache).
	g.allowed = map[string]bool{}
	p, err = Run(ctx, g, PruneOptions{ResultsDir: results, Keep: 1, CacheKeep: 1, DryRun: true})
	if err != nil {
		t.Fatal(err)
	}
	if !p.Cache.Considered || p.Cache.Records == 0 || !p.Cache.Prune || !strings.Contains(p.Cache.Why, "over the 1 B limit") {
		t.Errorf("dry-run cache plan = %+v", p.Cache)
	}
	out.Reset()
	Print(&out, p, true)
	if !strings.Contains(out.String(), "would remove") || strings.Contains(out.String(), "freed") {
		t.Errorf("dry run output:\n%s", out.String())
	}
}
