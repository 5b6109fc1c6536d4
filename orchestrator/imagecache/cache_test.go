package imagecache

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// fakeEngine holds images by reference; Save writes a docker-save archive
// of one, Load reads the manifest's tags and takes the config's digest.
type fakeEngine struct {
	imgs   map[string]string // ref → id
	loaded int
}

func (f *fakeEngine) Image(_ context.Context, ref string) (engine.Image, bool, error) {
	id, ok := f.imgs[ref]
	return engine.Image{Ref: ref, ID: id, Layers: []string{layer}}, ok, nil
}

func (f *fakeEngine) Save(_ context.Context, refs ...string) (io.ReadCloser, error) {
	id := f.imgs[refs[0]]
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	manifest, _ := json.Marshal([]map[string]any{{"Config": id[7:] + ".json", "RepoTags": refs, "Layers": []string{}}})
	for name, data := range map[string][]byte{"manifest.json": manifest, id[7:] + ".json": []byte("{}")} {
		tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(data))})
		tw.Write(data)
	}
	tw.Close()
	return io.NopCloser(&buf), nil
}

func (f *fakeEngine) Load(_ context.Context, r io.Reader) error {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err != nil {
			return nil
		}
		if h.Name == "manifest.json" {
			var m []struct {
				Config   string
				RepoTags []string
			}
			data, _ := io.ReadAll(tr)
			json.Unmarshal(data, &m)
			for _, e := range m {
				for _, t := range e.RepoTags {
					f.imgs[t] = "sha256:" + strings.TrimSuffix(e.Config, ".json")
				}
			}
			f.loaded++
		}
	}
}

func (f *fakeEngine) RemoveImage(_ context.Context, ref string) error {
	delete(f.imgs, ref)
	return nil
}

var (
	key = strings.Repeat("1", 64)
	id  = "sha256:" + strings.Repeat("a", 64)
	ref = "halebench/toolchain-c:1111111111111111"
	// unsigned is where an image no key vouches for is loaded.
	unsigned = "halebench-restored/toolchain-c:1111111111111111"
	layer    = "sha256:" + strings.Repeat("b", 64)
)

func filled(t *testing.T) (*Cache, *fakeEngine, *bytes.Buffer) {
	return filledWith(t, nil)
}

// filledWith is a folder holding one image, stored by a job with key sign.
func filledWith(t *testing.T, sign []byte) (*Cache, *fakeEngine, *bytes.Buffer) {
	t.Helper()
	eng := &fakeEngine{imgs: map[string]string{ref: id}}
	var log bytes.Buffer
	c := New(t.TempDir(), eng, &log, sign)
	if err := c.Store(context.Background(), key, ref, id); err != nil {
		t.Fatal(err)
	}
	delete(eng.imgs, ref)
	return c, eng, &log
}

// Stored, then restored with no key: the image is back with its digest,
// under the reference of unverified images (no key can vouch for it), and
// nothing else is written or loaded.
func TestStoreRestore(t *testing.T) {
	c, eng, log := filled(t)
	r, err := c.Restore(context.Background(), key, ref, unsigned)
	if err != nil || r.Ref != unsigned || r.Signed || eng.imgs[unsigned] != id || len(eng.imgs) != 1 {
		t.Fatalf("restore: %+v %v %v\n%s", r, err, eng.imgs, log)
	}
	m, _ := filepath.Glob(filepath.Join(c.dir, "*"))
	if len(m) != 2 {
		t.Fatalf("the folder holds %v, want the archive and its entry", m)
	}
	for _, p := range m { // a CI cache step, running as another user, reads them
		if st, err := os.Stat(p); err != nil || st.Mode().Perm() != FileMode {
			t.Errorf("%s: mode %v (%v), want %v", p, st.Mode().Perm(), err, os.FileMode(FileMode))
		}
	}
	if r, err := c.Restore(context.Background(), strings.Repeat("2", 64), ref, unsigned); r.Ref != "" || err != nil {
		t.Fatalf("a key not held: %+v %v", r, err)
	}
}

// An entry signed with the job's key restores the image under its own
// reference, signed; a job without the key restores it unverified; a job
// with another key, or an entry whose pinned digest was changed (archive
// and entry forged to agree), is refused and removed before anything loads.
func TestSignedRestore(t *testing.T) {
	k := []byte(strings.Repeat("k", MinKeyLen))
	c, eng, log := filledWith(t, k)
	data, _ := os.ReadFile(c.entryPath(key))
	if !bytes.Contains(data, []byte(`"hmac"`)) || !bytes.Contains(data, []byte(layer)) {
		t.Fatalf("the entry of a keyed job is not signed or names no layers:\n%s", data)
	}
	r, err := c.Restore(context.Background(), key, ref, unsigned)
	if err != nil || r.Ref != ref || !r.Signed || eng.imgs[ref] != id {
		t.Fatalf("signed restore: %+v %v %v\n%s", r, err, eng.imgs, log)
	}
	delete(eng.imgs, ref)
	c.sign = nil
	if r, err := c.Restore(context.Background(), key, ref, unsigned); err != nil || r.Ref != unsigned || r.Signed {
		t.Fatalf("restore without the key: %+v %v", r, err)
	}
	other := "sha256:" + strings.Repeat("c", 64)
	for name, tamper := range map[string]func(*Cache){
		"another key": func(c *Cache) { c.sign = []byte(strings.Repeat("o", MinKeyLen)) },
		"another image pinned": func(c *Cache) {
			edit(t, c.archivePath(key), func(b []byte) []byte { return bytes.ReplaceAll(b, []byte(id[7:]), []byte(other[7:])) })
			archive, _ := os.ReadFile(c.archivePath(key))
			sum := sha256.Sum256(archive)
			edit(t, c.entryPath(key), func(b []byte) []byte {
				var e Entry
				json.Unmarshal(b, &e)
				e.ID, e.Size, e.SHA256 = other, int64(len(archive)), hex.EncodeToString(sum[:])
				out, _ := json.Marshal(e)
				return out
			})
		},
		"no signature": func(c *Cache) {
			edit(t, c.entryPath(key), func(b []byte) []byte {
				var e Entry
				json.Unmarshal(b, &e)
				e.HMAC = ""
				out, _ := json.Marshal(e)
				return out
			})
		},
	} {
		c, eng, log := filledWith(t, k)
		tamper(c)
		r, err := c.Restore(context.Background(), key, ref, unsigned)
		if r.Ref != "" || err != nil || eng.loaded != 0 || !strings.Contains(log.String(), "not signed with this job's HALEBENCH_CACHE_KEY") {
			t.Errorf("%s: restored %+v, %v, %d loads; log %q", name, r, err, eng.loaded, log)
		}
	}
}

// Whatever is wrong with an entry or its archive refuses it before the
// engine loads anything, says so, and removes it from the folder.
func TestRestoreRefuses(t *testing.T) {
	for name, c := range map[string]struct {
		tamper func(c *Cache)
		ref    string
		want   string
	}{
		"a changed byte": {func(c *Cache) { edit(t, c.archivePath(key), func(b []byte) []byte { b[600] ^= 1; return b }) }, ref, "sha256"},
		"a longer archive": {func(c *Cache) {
			edit(t, c.archivePath(key), func(b []byte) []byte { return append(b, 0) })
		}, ref, "bytes"},
		"another key's entry": {func(c *Cache) {
			edit(t, c.entryPath(key), func(b []byte) []byte { return bytes.Replace(b, []byte(key), []byte(strings.Repeat("3", 64)), 1) })
		}, ref, "names key"},
		"an unknown field": {func(c *Cache) {
			edit(t, c.entryPath(key), func(b []byte) []byte { return bytes.Replace(b, []byte(`"key"`), []byte(`"x":1,"key"`), 1) })
		}, ref, "unknown field"},
		"a link for the archive": {func(c *Cache) {
			os.Remove(c.archivePath(key))
			os.Symlink("/etc/passwd", c.archivePath(key))
		}, ref, "not a regular file"},
		"a link for the entry": {func(c *Cache) {
			data, _ := os.ReadFile(c.entryPath(key))
			os.WriteFile(filepath.Join(t.TempDir(), "e.json"), data, 0o644)
			os.Remove(c.entryPath(key))
			os.Symlink(filepath.Join(t.TempDir(), "e.json"), c.entryPath(key))
		}, ref, "not a regular file"},
		// A FIFO would block an open for reading until a writer came.
		"a FIFO for the archive": {func(c *Cache) {
			os.Remove(c.archivePath(key))
			syscall.Mkfifo(c.archivePath(key), 0o644)
		}, ref, "not a regular file"},
		"another reference asked": {func(*Cache) {}, "halebench/toolchain-go:1111111111111111", "not halebench/toolchain-go"},
	} {
		cache, eng, log := filled(t)
		c.tamper(cache)
		r, err := cache.Restore(context.Background(), key, c.ref, unsigned)
		if r.Ref != "" || err != nil || eng.loaded != 0 || !strings.Contains(log.String(), "cache: refusing") || !strings.Contains(log.String(), c.want) {
			t.Errorf("%s: restored %+v, %v, %d loads; log %q, want %q", name, r, err, eng.loaded, log, c.want)
		}
		if m, _ := filepath.Glob(filepath.Join(cache.dir, "*")); len(m) != 0 {
			t.Errorf("%s: the refused archive stays in the folder: %v", name, m)
		}
	}
}

func edit(t *testing.T, path string, f func([]byte) []byte) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, f(b), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Prune removes what was not used within the age, halves of pairs and the
// leftovers of interrupted writes; it leaves fresh pairs and others' files.
func TestPrune(t *testing.T) {
	c, _, _ := filled(t)
	now := time.Now()
	other := filepath.Join(c.dir, "notes.txt")
	os.WriteFile(other, nil, 0o644)
	os.WriteFile(filepath.Join(c.dir, ".tmp-"+key+"-1.tar"), []byte("half"), 0o644)
	os.WriteFile(filepath.Join(c.dir, strings.Repeat("4", 64)+".tar"), []byte("no entry"), 0o644)
	p, err := Prune(c.dir, time.Hour, now)
	if err != nil || p.Archives != 1 || p.Strays != 1 {
		t.Fatalf("prune: %+v %v", p, err)
	}
	if _, err := regular(c.archivePath(key)); err != nil {
		t.Fatalf("a fresh archive was removed: %v", err)
	}
	p, err = Prune(c.dir, time.Hour, now.Add(2*time.Hour))
	if err != nil || p.Archives != 1 {
		t.Fatalf("prune of an old archive: %+v %v", p, err)
	}
	if m, _ := filepath.Glob(filepath.Join(c.dir, "*")); len(m) != 1 || m[0] != other {
		t.Fatalf("left %v, want only %s", m, other)
	}
}

func TestPrepare(t *testing.T) {
	dir := t.TempDir()
	if err := Prepare(filepath.Join(dir, "new", "cache")); err != nil {
		t.Fatal(err)
	}
	os.Symlink(dir, filepath.Join(dir, "link"))
	os.WriteFile(filepath.Join(dir, "file"), nil, 0o644)
	for _, p := range []string{"link", "file"} {
		if err := Prepare(filepath.Join(dir, p)); err == nil || !strings.Contains(err.Error(), "not a folder") {
			t.Errorf("%s: %v, want a refusal", p, err)
		}
	}
}
