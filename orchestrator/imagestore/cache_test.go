package imagestore

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// fakeImage is an image of the fake engine: its config and layer tars.
type fakeImage struct {
	config []byte
	layers [][]byte
}

func (i fakeImage) id() string { return "sha256:" + sum(i.config) }

func sum(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// newImage is an image of the given layers (its config names their diff IDs).
func newImage(label string, layers ...[]byte) fakeImage {
	var diffs []string
	for _, l := range layers {
		diffs = append(diffs, "sha256:"+sum(l))
	}
	cfg, _ := json.Marshal(map[string]any{"config": map[string]any{"Labels": map[string]string{"x": label}}, "rootfs": map[string]any{"type": "layers", "diff_ids": diffs}})
	return fakeImage{config: cfg, layers: layers}
}

// fakeEngine holds images by reference. Save writes a docker-save archive as
// docker 20.10 does (a folder per layer with layer.tar, json and VERSION, a
// repeated layer as a link to the first, the config, manifest.json and
// repositories); Load reads one as docker does, checking each layer against
// the config's diff IDs, and loads nothing from a cut stream.
type fakeEngine struct {
	imgs   map[string]fakeImage
	loaded int
	files  map[string][]byte // of the last archive loaded
}

func (f *fakeEngine) Image(_ context.Context, ref string) (engine.Image, bool, error) {
	img, ok := f.imgs[ref]
	if !ok {
		return engine.Image{}, false, nil
	}
	var diffs []string
	for _, l := range img.layers {
		diffs = append(diffs, "sha256:"+sum(l))
	}
	return engine.Image{Ref: ref, ID: img.id(), Layers: diffs}, true, nil
}

func (f *fakeEngine) Save(_ context.Context, refs ...string) (io.ReadCloser, error) {
	img := f.imgs[refs[0]]
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	put := func(name string, data []byte) {
		tw.WriteHeader(&tar.Header{Name: name, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(data))})
		tw.Write(data)
	}
	var names []string
	first := map[string]string{}
	for i, l := range img.layers {
		dir := sum([]byte(fmt.Sprint(refs[0], i)))
		names = append(names, dir+"/layer.tar")
		tw.WriteHeader(&tar.Header{Name: dir + "/", Typeflag: tar.TypeDir, Mode: 0o755})
		put(dir+"/VERSION", []byte("1.0"))
		put(dir+"/json", []byte(`{"id":"`+dir+`"}`))
		if to, ok := first[sum(l)]; ok {
			tw.WriteHeader(&tar.Header{Name: dir + "/layer.tar", Typeflag: tar.TypeSymlink, Linkname: "../" + to})
			continue
		}
		first[sum(l)] = dir + "/layer.tar"
		put(dir+"/layer.tar", l)
	}
	put(img.id()[7:]+".json", img.config)
	manifest, _ := json.Marshal([]map[string]any{{"Config": img.id()[7:] + ".json", "RepoTags": refs, "Layers": names}})
	put("manifest.json", manifest)
	put("repositories", []byte("{}"))
	tw.Close()
	return io.NopCloser(&buf), nil
}

func (f *fakeEngine) Load(_ context.Context, r io.Reader) error {
	files := map[string][]byte{}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("reading the archive: %w", err)
		}
		if h.Typeflag == tar.TypeReg {
			if files[h.Name], err = io.ReadAll(tr); err != nil {
				return fmt.Errorf("reading the archive: %w", err)
			}
		}
	}
	var m []struct {
		Config   string
		RepoTags []string
		Layers   []string
	}
	if err := json.Unmarshal(files["manifest.json"], &m); err != nil {
		return err
	}
	for _, e := range m {
		img := fakeImage{config: files[e.Config]}
		var cfg struct {
			RootFS struct {
				DiffIDs []string `json:"diff_ids"`
			} `json:"rootfs"`
		}
		json.Unmarshal(img.config, &cfg)
		if len(cfg.RootFS.DiffIDs) != len(e.Layers) {
			return errors.New("the config's layers are not the manifest's")
		}
		for i, l := range e.Layers {
			data, held := f.held(cfg.RootFS.DiffIDs[:i+1])
			if !held {
				data = files[l]
			}
			if "sha256:"+sum(data) != cfg.RootFS.DiffIDs[i] {
				return fmt.Errorf("invalid diffID for layer %d", i)
			}
			img.layers = append(img.layers, data)
		}
		for _, t := range e.RepoTags {
			f.imgs[t] = img
		}
	}
	f.loaded++
	f.files = files
	return nil
}

// held is the top layer of chain when an image holds that chain (docker
// then reads nothing of that layer from the archive).
func (f *fakeEngine) held(chain []string) ([]byte, bool) {
	for _, img := range f.imgs {
		if len(img.layers) < len(chain) {
			continue
		}
		i := 0
		for i < len(chain) && "sha256:"+sum(img.layers[i]) == chain[i] {
			i++
		}
		if i == len(chain) {
			return img.layers[i-1], true
		}
	}
	return nil, false
}

func (f *fakeEngine) RemoveImage(_ context.Context, ref string) error {
	delete(f.imgs, ref)
	return nil
}

var (
	key  = strings.Repeat("1", 64)
	key2 = strings.Repeat("2", 64)
	ref  = "halebench/toolchain-c:1111111111111111"
	ref2 = "halebench/bench-c:2222222222222222"
	// unsigned is where an image no key vouches for is loaded.
	unsigned = "halebench-restored/toolchain-c:1111111111111111"
	lower    = bytes.Repeat([]byte("lower layer "), 2000)
	upper    = bytes.Repeat([]byte("upper layer "), 1000)
	// tc holds lower twice (as an empty layer can be), bench adds upper.
	tc    = newImage("tc", lower, lower)
	bench = newImage("bench", lower, lower, upper)
)

func filled(t *testing.T) (*Cache, *fakeEngine, *bytes.Buffer) {
	return filledWith(t, nil)
}

// filledWith is a folder holding two images that share their lower layer,
// stored by a job with key sign; the engine then holds neither.
func filledWith(t *testing.T, sign []byte) (*Cache, *fakeEngine, *bytes.Buffer) {
	t.Helper()
	eng := &fakeEngine{imgs: map[string]fakeImage{ref: tc, ref2: bench}}
	var log bytes.Buffer
	dir := filepath.Join(t.TempDir(), "cache")
	if err := Prepare(dir); err != nil {
		t.Fatal(err)
	}
	c := New(dir, eng, &log, sign)
	if err := c.Store(context.Background(), key, ref, tc.id()); err != nil {
		t.Fatal(err)
	}
	if err := c.Store(context.Background(), key2, ref2, bench.id()); err != nil {
		t.Fatal(err)
	}
	eng.imgs = map[string]fakeImage{}
	return c, eng, &log
}

func blobPath(c *Cache, digest string) string {
	return filepath.Join(c.dir, "blobs", "sha256", hexOf(digest))
}

// Two images stored: each layer is held once (the folder is the two configs
// and the two distinct layers beside the entries), every file 0644 and
// every folder 0755. Restored with no key: the image is back with its
// digest and layers, under the reference of unverified images.
func TestStoreRestore(t *testing.T) {
	c, eng, log := filled(t)
	blobs, _ := filepath.Glob(filepath.Join(c.dir, "blobs", "sha256", "*"))
	entries, _ := filepath.Glob(filepath.Join(c.dir, "*.json"))
	if len(blobs) != 4 || len(entries) != 2 {
		t.Fatalf("the folder holds blobs %v and entries %v, want 4 blobs (2 configs, 2 layers) and 2 entries", blobs, entries)
	}
	filepath.Walk(c.dir, func(p string, st os.FileInfo, err error) error {
		want := os.FileMode(FileMode)
		if st.IsDir() {
			want = DirMode
		}
		if err != nil || st.Mode().Perm() != want {
			t.Errorf("%s: mode %v (%v), want %v", p, st.Mode().Perm(), err, want)
		}
		return nil
	})
	r, err := c.Restore(context.Background(), key2, ref2, unsigned, nil)
	if err != nil || r.Ref != unsigned || r.Signed || eng.imgs[unsigned].id() != bench.id() || len(eng.imgs) != 1 || eng.loaded != 1 {
		t.Fatalf("restore: %+v %v %v\n%s", r, err, eng.imgs, log)
	}
	if r, err := c.Restore(context.Background(), strings.Repeat("3", 64), ref, unsigned, nil); r.Ref != "" || err != nil {
		t.Fatalf("a key not held: %+v %v", r, err)
	}
	// Stored again: nothing is saved (the entry and its blobs are there).
	eng.imgs[ref] = tc
	if err := c.Store(context.Background(), key, ref, tc.id()); err != nil {
		t.Fatal(err)
	}
	if again, _ := filepath.Glob(filepath.Join(c.dir, "blobs", "sha256", "*")); len(again) != 4 {
		t.Fatalf("storing again left %v", again)
	}
	// A blob changed in the folder is replaced by the next image stored
	// that holds it, not kept for its name.
	upperBlob := blobPath(c, "sha256:"+sum(upper))
	edit(t, upperBlob, func(b []byte) []byte { b[0] ^= 1; return b })
	os.Remove(c.entryPath(key2))
	eng.imgs[ref2] = bench
	if err := c.Store(context.Background(), key2, ref2, bench.id()); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(upperBlob); sum(data) != sum(upper) {
		t.Fatal("a changed blob was kept when an image holding it was stored")
	}
}

// An image restored on its parent (the layers of an image the engine holds)
// is sent without them; when the engine does not hold what the caller
// says, the stream is sent again whole.
func TestRestoreLeavesOutHeldLayers(t *testing.T) {
	c, eng, log := filled(t)
	if r, err := c.Restore(context.Background(), key, ref, unsigned, nil); r.Ref != unsigned || err != nil {
		t.Fatalf("restore: %+v %v\n%s", r, err, log)
	}
	tcLayers := []string{"sha256:" + sum(lower), "sha256:" + sum(lower)}
	r, err := c.Restore(context.Background(), key2, ref2, "halebench-restored/bench-c:2", tcLayers)
	if r.Ref == "" || err != nil || eng.imgs[r.Ref].id() != bench.id() {
		t.Fatalf("restore on its parent: %+v %v\n%s", r, err, log)
	}
	if len(eng.files[heldName]) != 0 || eng.files[hexOf("sha256:"+sum(lower))+"/layer.tar"] != nil || eng.files[hexOf("sha256:"+sum(upper))+"/layer.tar"] == nil {
		t.Fatalf("the stream sent %d files; want the held layer left out, the top one sent", len(eng.files))
	}
	c, eng, log = filled(t)
	r, err = c.Restore(context.Background(), key2, ref2, unsigned, tcLayers)
	if r.Ref != unsigned || err != nil || eng.imgs[unsigned].id() != bench.id() || eng.loaded != 1 || !strings.Contains(log.String(), "sending them too") {
		t.Fatalf("a parent the engine does not hold: %+v %v, %d loads\n%s", r, err, eng.loaded, log)
	}
}

// An entry of the old format (a whole archive per image) is said, removed
// with its archive, and not restored.
func TestOldFormatIgnored(t *testing.T) {
	c, eng, log := filled(t)
	os.WriteFile(c.entryPath(key), []byte(`{"key":"`+key+`","reference":"`+ref+`","id":"`+tc.id()+`","size":10,"sha256":"`+key+`"}`), 0o644)
	os.WriteFile(c.oldArchivePath(key), []byte("old archive"), 0o644)
	r, err := c.Restore(context.Background(), key, ref, unsigned, nil)
	if r.Ref != "" || err != nil || eng.loaded != 0 || !strings.Contains(log.String(), "another format (0;") || !strings.Contains(log.String(), "built and kept as layers") {
		t.Fatalf("old format: %+v %v, %d loads; log %q", r, err, eng.loaded, log)
	}
	if _, err := os.Lstat(c.oldArchivePath(key)); !os.IsNotExist(err) {
		t.Fatalf("the old archive stays: %v", err)
	}
}

// An entry signed with the job's key restores the image under its own
// reference, signed; a job without the key restores it unverified; a job
// with another key, an entry pointed at another image's blobs (the entry
// forged to agree with them), or one without its signature is refused
// before anything loads.
func TestSignedRestore(t *testing.T) {
	k := []byte(strings.Repeat("k", MinKeyLen))
	c, eng, log := filledWith(t, k)
	data, _ := os.ReadFile(c.entryPath(key))
	if !bytes.Contains(data, []byte(`"hmac"`)) || !bytes.Contains(data, []byte(sum(lower))) {
		t.Fatalf("the entry of a keyed job is not signed or names no layers:\n%s", data)
	}
	r, err := c.Restore(context.Background(), key, ref, unsigned, nil)
	if err != nil || r.Ref != ref || !r.Signed || eng.imgs[ref].id() != tc.id() {
		t.Fatalf("signed restore: %+v %v %v\n%s", r, err, eng.imgs, log)
	}
	delete(eng.imgs, ref)
	c.sign = nil
	if r, err := c.Restore(context.Background(), key, ref, unsigned, nil); err != nil || r.Ref != unsigned || r.Signed {
		t.Fatalf("restore without the key: %+v %v", r, err)
	}
	for name, tamper := range map[string]func(*Cache){
		"another key": func(c *Cache) { c.sign = []byte(strings.Repeat("o", MinKeyLen)) },
		"another image's blobs": func(c *Cache) {
			other, _ := c.readEntry(key2)
			editEntry(t, c, key, func(e *Entry) { e.ID, e.Config, e.Blobs, e.Layers = other.ID, other.Config, other.Blobs, other.Layers })
		},
		"no signature": func(c *Cache) { editEntry(t, c, key, func(e *Entry) { e.HMAC = "" }) },
	} {
		c, eng, log := filledWith(t, k)
		tamper(c)
		r, err := c.Restore(context.Background(), key, ref, unsigned, nil)
		if r.Ref != "" || err != nil || eng.loaded != 0 || !strings.Contains(log.String(), "not signed with this job's HALEBENCH_CACHE_KEY") {
			t.Errorf("%s: restored %+v, %v, %d loads; log %q", name, r, err, eng.loaded, log)
		}
	}
}

func editEntry(t *testing.T, c *Cache, key string, f func(*Entry)) {
	t.Helper()
	edit(t, c.entryPath(key), func(b []byte) []byte {
		var e Entry
		json.Unmarshal(b, &e)
		f(&e)
		out, _ := json.Marshal(e)
		return out
	})
}

// Whatever is wrong with an entry or its blobs refuses it, says so, and
// removes the entry from the folder; a blob whose bytes are not its name's
// is removed too, and the engine is left with no image of it (a layer found
// changed while it is sent cuts the stream before its manifest).
func TestRestoreRefuses(t *testing.T) {
	upperBlob := "sha256:" + sum(upper)
	for name, c := range map[string]struct {
		tamper func(c *Cache)
		ref    string
		want   string
		gone   string // a blob removed with the entry
	}{
		"a changed layer byte": {func(c *Cache) {
			edit(t, blobPath(c, upperBlob), func(b []byte) []byte { b[600] ^= 1; return b })
		}, ref2, "holds bytes of sha256", upperBlob},
		"a changed config byte": {func(c *Cache) {
			edit(t, blobPath(c, bench.id()), func(b []byte) []byte { b[3] ^= 1; return b })
		}, ref2, "holds bytes of sha256", bench.id()},
		"a longer layer": {func(c *Cache) {
			edit(t, blobPath(c, upperBlob), func(b []byte) []byte { return append(b, 0) })
		}, ref2, "bytes, its entry says", ""},
		"a missing layer": {func(c *Cache) { os.Remove(blobPath(c, upperBlob)) }, ref2, "no such file", ""},
		"another key's entry": {func(c *Cache) {
			edit(t, c.entryPath(key2), func(b []byte) []byte { return bytes.Replace(b, []byte(key2), []byte(strings.Repeat("3", 64)), 1) })
		}, ref2, "names key", ""},
		"an unknown field": {func(c *Cache) {
			edit(t, c.entryPath(key2), func(b []byte) []byte { return bytes.Replace(b, []byte(`"key"`), []byte(`"x":1,"key"`), 1) })
		}, ref2, "unknown field", ""},
		"a blob named by no digest": {func(c *Cache) {
			editEntry(t, c, key2, func(e *Entry) { e.Blobs[2].Digest = "sha256:../../../etc/passwd" })
		}, ref2, "not a sha256 digest", ""},
		"a link for a layer": {func(c *Cache) {
			os.Remove(blobPath(c, upperBlob))
			os.Symlink("/etc/passwd", blobPath(c, upperBlob))
		}, ref2, "not a regular file", ""},
		"a link for the blob folder": {func(c *Cache) {
			elsewhere := t.TempDir()
			os.Rename(filepath.Join(c.dir, "blobs", "sha256"), filepath.Join(elsewhere, "sha256"))
			os.Symlink(filepath.Join(elsewhere, "sha256"), filepath.Join(c.dir, "blobs", "sha256"))
		}, ref2, "not a folder", ""},
		"a link for the entry": {func(c *Cache) {
			data, _ := os.ReadFile(c.entryPath(key2))
			p := filepath.Join(t.TempDir(), "e.json")
			os.WriteFile(p, data, 0o644)
			os.Remove(c.entryPath(key2))
			os.Symlink(p, c.entryPath(key2))
		}, ref2, "not a regular file", ""},
		// A FIFO would block an open for reading until a writer came.
		"a FIFO for a layer": {func(c *Cache) {
			os.Remove(blobPath(c, upperBlob))
			syscall.Mkfifo(blobPath(c, upperBlob), 0o644)
		}, ref2, "not a regular file", ""},
		"another reference asked": {func(*Cache) {}, "halebench/bench-go:2222222222222222", "not halebench/bench-go", ""},
	} {
		cache, eng, log := filled(t)
		c.tamper(cache)
		r, err := cache.Restore(context.Background(), key2, c.ref, unsigned, nil)
		if r.Ref != "" || err != nil || len(eng.imgs) != 0 || !strings.Contains(log.String(), "cache: refusing") || !strings.Contains(log.String(), c.want) {
			t.Errorf("%s: restored %+v, %v, images %v; log %q, want %q", name, r, err, eng.imgs, log, c.want)
		}
		if _, err := os.Lstat(cache.entryPath(key2)); !os.IsNotExist(err) {
			t.Errorf("%s: the refused entry stays in the folder: %v", name, err)
		}
		if _, err := os.Lstat(blobPath(cache, c.gone)); c.gone != "" && !os.IsNotExist(err) {
			t.Errorf("%s: the changed blob stays in the folder: %v", name, err)
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

// Prune removes the entries not used within the age, then the blobs no
// entry left names (a shared layer stays while one entry holds it), old
// archives and the leftovers of interrupted writes; it leaves others' files.
func TestPrune(t *testing.T) {
	c, _, _ := filled(t)
	now := time.Now()
	other := filepath.Join(c.dir, "notes.txt")
	os.WriteFile(other, nil, 0o644)
	os.WriteFile(filepath.Join(c.dir, ".tmp-"+key+"-1.json"), []byte("half"), 0o644)
	os.WriteFile(filepath.Join(c.dir, "blobs", "sha256", ".tmp-0123"), []byte("half"), 0o644)
	os.WriteFile(filepath.Join(c.dir, strings.Repeat("4", 64)+".tar"), []byte("old format"), 0o644)
	os.WriteFile(filepath.Join(c.dir, "blobs", "sha256", strings.Repeat("5", 64)), []byte("no entry"), 0o644)
	p, err := Prune(c.dir, time.Hour, now)
	if err != nil || p.Entries != 0 || p.Blobs != 1 || p.Strays != 3 {
		t.Fatalf("prune: %+v %v", p, err)
	}
	editEntry(t, c, key2, func(e *Entry) { e.Used = now.Add(-2 * time.Hour) })
	p, err = Prune(c.dir, time.Hour, now)
	if err != nil || p.Entries != 1 || p.Blobs != 2 || p.Bytes != int64(len(upper)+len(bench.config)) {
		t.Fatalf("prune of an old entry: %+v %v", p, err)
	}
	if _, err := os.Lstat(blobPath(c, "sha256:"+sum(lower))); err != nil {
		t.Fatalf("the layer another entry holds was removed: %v", err)
	}
	p, err = Prune(c.dir, time.Hour, now.Add(2*time.Hour))
	if err != nil || p.Entries != 1 || p.Blobs != 2 {
		t.Fatalf("prune of the last entry: %+v %v", p, err)
	}
	if m, _ := filepath.Glob(filepath.Join(c.dir, "*")); len(m) != 2 || m[1] != other {
		t.Fatalf("left %v, want only blobs/ and %s", m, other)
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

// HALEBENCH_CACHE_KEY: unset is no key, a short one is refused saying
// how to make one, a long enough one is taken as it is.
func TestSigningKey(t *testing.T) {
	if k, err := SigningKey(""); k != nil || err != nil {
		t.Errorf("unset: %q %v", k, err)
	}
	if _, err := SigningKey("short"); err == nil || !strings.Contains(err.Error(), "openssl rand") {
		t.Errorf("short: %v", err)
	}
	long := strings.Repeat("k", MinKeyLen)
	if k, err := SigningKey(long); err != nil || string(k) != long {
		t.Errorf("long enough: %q %v", k, err)
	}
}

// $HALEBENCH_CACHE_KEY_FILE: the key read from a file (a trailing newline
// dropped, an empty file no key); both ways at once, a link, a folder, a
// missing or oversized file and a short key refused, saying which.
func TestKeyFromEnv(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("k", MinKeyLen)
	files := map[string]string{"key": long + "\n", "empty": "", "short": "short\n", "big": strings.Repeat("k", maxKeyFile+1)}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	os.Symlink(filepath.Join(dir, "key"), filepath.Join(dir, "link"))
	for _, c := range []struct {
		key, file string
		want      string // the key, or a word of the error
		err       bool
	}{
		{key: long, want: long},
		{file: "key", want: long},
		{file: "empty", want: ""},
		{key: long, file: "key", want: "both", err: true},
		{file: "short", want: "openssl rand", err: true},
		{file: "big", want: "over 4096 bytes", err: true},
		{file: "link", want: "not a link", err: true},
		{file: "missing", want: "no such file", err: true},
		{file: ".", want: "not a regular file", err: true},
	} {
		env := map[string]string{"HALEBENCH_CACHE_KEY": c.key}
		if c.file != "" {
			env["HALEBENCH_CACHE_KEY_FILE"] = filepath.Join(dir, c.file)
		}
		k, err := KeyFromEnv(func(n string) string { return env[n] })
		switch {
		case c.err && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%+v: %q %v; want an error saying %q", c, k, err, c.want)
		case !c.err && (err != nil || string(k) != c.want):
			t.Errorf("%+v: %q %v; want %q", c, k, err, c.want)
		}
	}
}
