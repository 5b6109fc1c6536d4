package image_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// A cache folder filled by one builder restores the toolchain and bench
// images into an engine that lost them: no build step, the same digests,
// trusted by their signed entries, each layer kept once. A tampered entry
// (a layer blob's byte changed; the entry pointed at another image's blobs)
// is refused, removed from the folder, and the image rebuilt.
func TestCacheRestore(t *testing.T) {
	eng := enginetest.Connect(t)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	bk := enginetest.BuildKit(t, eng)
	// The default epoch, as every other engine test builds at: the base and
	// toolchains they made serve here, and on an empty engine this test
	// adds no second base (a git-epoch one would cost a minute or two).
	dir := t.TempDir()
	var log bytes.Buffer
	builder := func() *image.Builder {
		log.Reset()
		// Signed entries: restored under their own tags (an unsigned
		// restore, its own references, is session's TestRestoredImageEarnsTrust).
		return image.New(eng, bk, &log, image.Options{RunID: "test-cache", CacheDir: dir, CacheKey: []byte(strings.Repeat("k", 32))})
	}
	py, _ := suite.ByName("python")
	srcs := []image.Source{{Unit: "cached", Path: "testdata/cached.py"}}
	images := func(b *image.Builder) (image.Toolchain, image.BenchImage) {
		t.Helper()
		tc, err := b.Toolchain(ctx, py)
		if err != nil {
			t.Fatalf("%v\n%s", err, log.String())
		}
		bi, err := b.BenchImage(ctx, py, srcs)
		if err != nil {
			t.Fatalf("%v\n%s", err, log.String())
		}
		return tc, bi
	}
	tc1, bi1 := images(builder())
	for _, ref := range []string{bi1.Ref, tc1.Ref} {
		if err := eng.RemoveImage(ctx, ref); err != nil {
			t.Fatal(err)
		}
	}
	tc2, bi2 := images(builder())
	if tc2.Executed+tc2.Cached+bi2.Executed+bi2.Cached != 0 || tc2.ID != tc1.ID || bi2.ID != bi1.ID {
		t.Fatalf("restored: toolchain %s (%d+%d steps), bench %s (%d+%d steps); want %s and %s, no step\n%s",
			tc2.ID, tc2.Executed, tc2.Cached, bi2.ID, bi2.Executed, bi2.Cached, tc1.ID, bi1.ID, log.String())
	}
	if tc2.Provenance.Checked != image.CheckedHMAC || bi2.Provenance.Checked != image.CheckedHMAC || !bi2.Provenance.Trusted {
		t.Fatalf("restored: toolchain %+v, bench %+v; want both checked by hmac and trusted", tc2.Provenance, bi2.Provenance)
	}
	if strings.Count(log.String(), "restored") != 2 {
		t.Fatalf("want two images restored from the folder:\n%s", log.String())
	}
	// The bench image went without its toolchain's layers, which the engine
	// held (this engine takes that; another would be sent them, and say so).
	t.Logf("restores:\n%s", log.String())
	key := entryKey(t, dir, bi1.Ref)
	goKey := entryKey(t, dir, "halebench/toolchain-go:")
	for what, tamper := range map[string]func(){
		"a changed layer byte":  func() { flipByte(t, topBlob(t, dir, key)) },
		"another image's blobs": func() { forgeEntry(t, dir, key, goKey) },
	} {
		tamper()
		if err := eng.RemoveImage(ctx, bi1.Ref); err != nil {
			t.Fatal(err)
		}
		_, bi3 := images(builder())
		if bi3.ID != bi1.ID || bi3.Executed+bi3.Cached == 0 || !strings.Contains(log.String(), "cache: refusing "+key[:16]) {
			t.Fatalf("%s: bench image %s after %d+%d steps, want %s rebuilt and the archive refused:\n%s", what, bi3.ID, bi3.Executed, bi3.Cached, bi1.ID, log.String())
		}
		if got := entryKey(t, dir, bi1.Ref); got != key {
			t.Fatalf("%s: the rebuilt image was not kept again (%s)", what, got)
		}
	}
}

// entryKey is the key of the folder's entry whose reference starts with ref.
func entryKey(t *testing.T, dir, ref string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, p := range m {
		data, _ := os.ReadFile(p)
		var e struct{ Key, Reference string }
		if json.Unmarshal(data, &e) == nil && strings.HasPrefix(e.Reference, ref) {
			return e.Key
		}
	}
	t.Fatalf("no entry for %s in the cache folder", ref)
	return ""
}

// topBlob is the path of the top layer blob of key's entry.
func topBlob(t *testing.T, dir, key string) string {
	t.Helper()
	var e struct{ Blobs []struct{ Digest string } }
	data, _ := os.ReadFile(filepath.Join(dir, key+".json"))
	if err := json.Unmarshal(data, &e); err != nil || len(e.Blobs) == 0 {
		t.Fatalf("entry %s: %v %s", key, err, data)
	}
	return filepath.Join(dir, "blobs", "sha256", strings.TrimPrefix(e.Blobs[len(e.Blobs)-1].Digest, "sha256:"))
}

// flipByte changes one byte in the middle of the file at path.
func flipByte(t *testing.T, path string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	b := make([]byte, 1)
	f.ReadAt(b, st.Size()/2)
	b[0] ^= 0xff
	if _, err := f.WriteAt(b, st.Size()/2); err != nil {
		t.Fatal(err)
	}
}

// forgeEntry points key's entry at goKey's image (its digest, config, blobs
// and layers), its signature left as it was: what a forger would do to pass
// another image off under key's reference.
func forgeEntry(t *testing.T, dir, key, goKey string) {
	t.Helper()
	var e, g map[string]any
	data, _ := os.ReadFile(filepath.Join(dir, key+".json"))
	json.Unmarshal(data, &e)
	data, _ = os.ReadFile(filepath.Join(dir, goKey+".json"))
	json.Unmarshal(data, &g)
	for _, f := range []string{"id", "config", "blobs", "layers"} {
		e[f] = g[f]
	}
	data, _ = json.Marshal(e)
	if err := os.WriteFile(filepath.Join(dir, key+".json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}
