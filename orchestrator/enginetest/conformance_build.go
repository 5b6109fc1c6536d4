package enginetest

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// build: a Dockerfile build lands in the store under its reference with
// the labels its label: arguments set; the same build again runs no step;
// a build with neither or both of an image and a folder is refused.
func (c *conf) build(t *testing.T) {
	ctx := context.Background()
	bk, err := c.d.Builder(ctx)
	if c.lacks(t, engine.FeatBuildKit) {
		if err == nil {
			bk.Close()
			t.Error("Builder answered, but Features says there is no BuildKit")
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	defer bk.Close()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "Dockerfile"), "FROM scratch\nCOPY hello /hello\n")
	write(t, filepath.Join(dir, "hello"), "built by the conformance suite "+c.run+"\n")
	ref := "halebench-conformance/built:" + c.run
	defer c.d.RemoveImage(ctx, ref)
	b := engine.Build{Context: dir, Dockerfile: dir, Args: map[string]string{"label:" + labelSuite: c.run}, Image: ref, What: "the conformance build"}
	built, err := bk.Build(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	im, ok, err := c.d.Image(ctx, ref)
	if err != nil || !ok || built.Digest == "" || im.Labels[labelSuite] != c.run {
		t.Fatalf("built %+v; the image %+v found %v (%v): want it stored with its label", built, im, ok, err)
	}
	again, err := bk.Build(ctx, b)
	if err != nil || again.Executed != 0 {
		t.Errorf("the same build again: %+v, %v; want every step from the cache", again, err)
	}
	for _, bad := range []engine.Build{{Context: dir, Dockerfile: dir, What: "no export"}, {Context: dir, Dockerfile: dir, Image: ref, Dir: dir, What: "two exports"}} {
		if _, err := bk.Build(ctx, bad); err == nil {
			t.Errorf("a build with Image %q and Dir %q: no error", bad.Image, bad.Dir)
		}
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// archives: a saved image loads back as the same image; a driver without
// archives refuses both, naming the feature.
func (c *conf) archives(t *testing.T) {
	ctx := context.Background()
	ref := "halebench-conformance/saved:" + c.run
	if err := c.d.Tag(ctx, c.img, ref); err != nil {
		t.Fatal(err)
	}
	defer c.d.RemoveImage(ctx, ref)
	rc, saveErr := c.d.Save(ctx, ref)
	loadErr := c.d.Load(ctx, bytes.NewReader(nil))
	if c.lacks(t, engine.FeatArchives) {
		var m1, m2 *engine.MissingFeatureError
		if !errors.As(saveErr, &m1) || m1.Feature != engine.FeatArchives || !errors.As(loadErr, &m2) || m2.Feature != engine.FeatArchives {
			t.Errorf("Save: %v; Load: %v; want both refused naming %s", saveErr, loadErr, engine.FeatArchives)
		}
		return
	}
	if saveErr != nil {
		t.Fatal(saveErr)
	}
	archive, err := io.ReadAll(rc)
	rc.Close()
	if err != nil {
		t.Fatal(err)
	}
	if loadErr == nil {
		t.Error("loading an empty archive: no error")
	}
	before, _, _ := c.d.Image(ctx, ref)
	if err := c.d.RemoveImage(ctx, ref); err != nil {
		t.Fatal(err)
	}
	if err := c.d.Load(ctx, bytes.NewReader(archive)); err != nil {
		t.Fatal(err)
	}
	if after, ok, err := c.d.Image(ctx, ref); err != nil || !ok || after.ID != before.ID {
		t.Errorf("loaded back: %+v found %v (%v); want ID %s", after, ok, err, before.ID)
	}
}

// buildCache: the builder's cache is measured (it is never pruned here:
// on a shared engine it is everyone's).
func (c *conf) buildCache(t *testing.T) {
	if c.lacks(t, engine.FeatBuildCache) {
		return
	}
	records, size, reclaimable, err := c.d.BuildCacheUsage(context.Background())
	if err != nil || records < 0 || reclaimable < 0 || reclaimable > size {
		t.Errorf("BuildCacheUsage: %d records, %d bytes, %d reclaimable, %v", records, size, reclaimable, err)
	}
}
