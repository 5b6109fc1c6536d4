package enginetest

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// A saved image loads back, into the same fake or another, as the same
// image: its ID, the tags it was saved under, its labels and layers.
func TestFakeSaveLoadRoundTrip(t *testing.T) {
	ctx := context.Background()
	f := &Engine{}
	labels := map[string]string{"org.halebench.test": "round trip"}
	id := f.Add("fake/saved:1", labels, 0)
	if err := f.Tag(ctx, "fake/saved:1", "fake/saved:2"); err != nil {
		t.Fatal(err)
	}
	before, _, _ := f.Image(ctx, "fake/saved:1")
	archive := save(t, f, "fake/saved:1", "fake/saved:2")
	for _, into := range []*Engine{f, {}} {
		if into == f {
			f.RemoveImage(ctx, "fake/saved:1")
			f.RemoveImage(ctx, "fake/saved:2")
		}
		if err := into.Load(ctx, bytes.NewReader(archive)); err != nil {
			t.Fatal(err)
		}
		for _, ref := range []string{"fake/saved:1", "fake/saved:2"} {
			im, ok, err := into.Image(ctx, ref)
			if err != nil || !ok || im.ID != id || !maps.Equal(im.Labels, labels) || !slices.Equal(im.Layers, before.Layers) {
				t.Errorf("%s loaded back: %+v (found %v, %v); want ID %s, labels %v, layers %v", ref, im, ok, err, id, labels, before.Layers)
			}
		}
	}
}

// Two builds of one request make one image (the same ID), on top of the
// layers of the image they are built FROM; the second is taken from the
// cache. The image survives a save and load.
func TestFakeBuildsAreReproducible(t *testing.T) {
	ctx := context.Background()
	f := &Engine{}
	f.Add("fake/base:1", map[string]string{"base": "yes"}, 0)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "Dockerfile"), []byte("ARG BASE\nFROM ${BASE}\nRUN true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	b := engine.Build{Context: dir, Dockerfile: dir, Args: map[string]string{"BASE": "fake/base:1", "label:built": "yes"}, Image: "fake/built:1", What: "test"}
	first, err := f.Build(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	second, err := f.Build(ctx, b)
	if err != nil || second.Digest != first.Digest || first.Executed != 1 || second.Executed != 0 || second.Cached != 1 {
		t.Fatalf("two builds: %+v, then %+v (%v); want one digest, the second from the cache", first, second, err)
	}
	base, _, _ := f.Image(ctx, "fake/base:1")
	built, _, _ := f.Image(ctx, "fake/built:1")
	if len(built.Layers) != 2 || built.Layers[0] != base.Layers[0] || built.Labels["base"] != "yes" || built.Labels["built"] != "yes" {
		t.Fatalf("built %+v on %+v: want the base's layer and labels, and one layer more", built, base)
	}
	other := &Engine{}
	if err := other.Load(ctx, bytes.NewReader(save(t, f, "fake/built:1"))); err != nil {
		t.Fatal(err)
	}
	if again, ok, _ := other.Image(ctx, "fake/built:1"); !ok || again.ID != built.ID {
		t.Fatalf("the built image loaded elsewhere: %+v, want ID %s", again, built.ID)
	}
}

// Load refuses what is not a docker-save archive of whole images, with an
// error and without storing anything.
func TestFakeLoadRefusesMalformedArchives(t *testing.T) {
	f := &Engine{}
	f.Add("fake/saved:1", nil, 0)
	good := save(t, f, "fake/saved:1")
	entries := readEntries(t, good)
	var manifest []manifestEntry
	if err := json.Unmarshal(entries["manifest.json"], &manifest); err != nil {
		t.Fatal(err)
	}
	layer, config := manifest[0].Layers[0], manifest[0].Config
	for name, archive := range map[string][]byte{
		"empty":              nil,
		"not a tar":          []byte("this is not an archive at all, not even close to 512 bytes"),
		"no manifest":        archiveOf(t, without(entries, "manifest.json"), nil),
		"manifest not JSON":  archiveOf(t, with(entries, "manifest.json", "[{"), nil),
		"manifest of none":   archiveOf(t, with(entries, "manifest.json", "[]"), nil),
		"config missing":     archiveOf(t, without(entries, config), nil),
		"config not JSON":    archiveOf(t, with(entries, config, "{"), nil),
		"layer missing":      archiveOf(t, without(entries, layer), nil),
		"layer changed":      archiveOf(t, with(entries, layer, string(tarOf(map[string]string{"x": "changed"}))), nil),
		"entry outside":      archiveOf(t, with(entries, "../escape.json", "{}"), nil),
		"a device":           archiveOf(t, entries, &tar.Header{Name: "dev", Typeflag: tar.TypeChar, Devmajor: 1, Devminor: 7}),
		"a truncated stream": good[:len(good)/2],
	} {
		t.Run(name, func(t *testing.T) {
			into := &Engine{}
			err := into.Load(context.Background(), bytes.NewReader(archive))
			if err == nil || !strings.HasPrefix(err.Error(), "loading an image archive: ") {
				t.Fatalf("Load: %v; want it refused, saying what", err)
			}
			if stored, _ := into.StoredImages(context.Background()); len(stored) != 0 {
				t.Fatalf("a refused archive stored %v", stored)
			}
		})
	}
}

func save(t *testing.T, f *Engine, refs ...string) []byte {
	t.Helper()
	rc, err := f.Save(context.Background(), refs...)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// readEntries are an archive's files by name.
func readEntries(t *testing.T, archive []byte) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	tr := tar.NewReader(bytes.NewReader(archive))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			out[h.Name], _ = io.ReadAll(tr)
		}
	}
}

func without(m map[string][]byte, name string) map[string][]byte {
	c := maps.Clone(m)
	delete(c, name)
	return c
}

func with(m map[string][]byte, name, data string) map[string][]byte {
	c := maps.Clone(m)
	c[name] = []byte(data)
	return c
}

// archiveOf is a tar of files, and extra (a header with no data) when given.
func archiveOf(t *testing.T, files map[string][]byte, extra *tar.Header) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, name := range slices.Sorted(maps.Keys(files)) {
		tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(files[name])), ModTime: time.Unix(0, 0), Typeflag: tar.TypeReg})
		tw.Write(files[name])
	}
	if extra != nil {
		tw.WriteHeader(extra)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
