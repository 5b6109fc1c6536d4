package lifecycle_test

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
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/lifecycle"
	"github.com/hale-lang/halebench/orchestrator/report/record"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
)

// A cache folder whose bench image was altered (its config changed, so a
// new digest, its labels still claiming this run's inputs, its entry forged
// to agree) passes every check an entry makes of itself. Without a key it
// is restored unverified: under halebench-restored/, origin restored,
// checked none, and the session runs unprivileged with the stronger modes
// withheld. With HALEBENCH_CACHE_KEY it is refused (its signature no longer
// matches) and rebuilt; the rebuilt image's signed entry then restores it
// trusted, under its own tag, checked by hmac.
func TestRestoredImageEarnsTrust(t *testing.T) {
	eng := enginetest.Connect(t)
	// Four sessions, each waiting its turn for the engine's lock.
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Minute)
	defer cancel()
	dir := t.TempDir()
	key := []byte(strings.Repeat("k", 40))
	goLang, _ := toolchain.ByName("go")
	srcs := []imagebuild.Source{{Unit: "trust", Path: "testdata/trust.go"}}
	var log bytes.Buffer
	session := func(sign []byte) (*lifecycle.Session, imagebuild.BenchImage) {
		t.Helper()
		log.Reset()
		s, err := lifecycle.Open(ctx, lifecycle.Options{Kind: "test", Engine: eng, Log: &log,
			Images: imagebuild.Options{CacheDir: dir, CacheKey: sign}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(s.Close)
		bi, err := s.Builder.BenchImage(ctx, goLang, srcs)
		if err != nil {
			t.Fatalf("%v\n%s", err, log.String())
		}
		return s, bi
	}
	privilege := func(s *lifecycle.Session) (engine.Privilege, []engine.Attempt) {
		t.Helper()
		sp, err := s.Ready(ctx)
		if err != nil {
			t.Fatal(err)
		}
		p, refused := sp.Privilege()
		s.Close()
		return p, refused
	}
	s, genuine := session(key)
	privilege(s)
	if genuine.Provenance == nil || !genuine.Provenance.Trusted {
		t.Fatalf("an image built or found here is not trusted: %+v\n%s", genuine.Provenance, log.String())
	}
	bkey := entryKey(t, dir, genuine.Ref)
	forged := forgeConfig(t, filepath.Join(dir, bkey+".tar"))
	forgeEntry(t, filepath.Join(dir, bkey+".json"), filepath.Join(dir, bkey+".tar"), forged)
	if err := eng.RemoveImage(ctx, genuine.Ref); err != nil {
		t.Fatal(err)
	}

	s, bi := session(nil)
	t.Cleanup(func() { _ = eng.RemoveImage(context.Background(), bi.Ref) })
	p, refused := privilege(s)
	rec := record.BenchImage(bi).Provenance
	if bi.ID != forged || !strings.HasPrefix(bi.Ref, "halebench-restored/") || rec == nil || rec.Origin != "restored" || rec.Checked != "none" || rec.Trusted {
		t.Fatalf("without a key: image %s (%s), provenance %+v; want the forged %s, restored unverified\n%s", bi.Ref, bi.ID, rec, forged, log.String())
	}
	if p.Mode != engine.ModeUnprivileged || len(refused) == 0 || !strings.Contains(refused[0].Error, "withheld by halebench") {
		t.Fatalf("without a key the forged image ran %s (refusals %+v)\n%s", p, refused, log.String())
	}
	if _, ok, _ := eng.Image(ctx, genuine.Ref); ok {
		t.Fatalf("the unverified image was loaded under %s, which a later run would trust", genuine.Ref)
	}

	s, bi = session(key)
	p, refused = privilege(s)
	if bi.ID != genuine.ID || bi.Provenance.Origin != "built" || !strings.Contains(log.String(), "not signed with this job's HALEBENCH_CACHE_KEY") {
		t.Fatalf("with the key: image %s %+v, want the forged entry refused and %s rebuilt\n%s", bi.ID, bi.Provenance, genuine.ID, log.String())
	}
	for _, a := range refused {
		if strings.Contains(a.Error, "withheld") {
			t.Fatalf("a trusted run withheld privilege: %+v", refused)
		}
	}

	if err := eng.RemoveImage(ctx, genuine.Ref); err != nil {
		t.Fatal(err)
	}
	s, bi = session(key)
	s.Close()
	if bi.Ref != genuine.Ref || bi.ID != genuine.ID || bi.Provenance.Origin != "restored" || bi.Provenance.Checked != "hmac" || !bi.Provenance.Trusted {
		t.Fatalf("a signed entry: %s %s %+v, want %s restored, checked by hmac, trusted\n%s", bi.Ref, bi.ID, bi.Provenance, genuine.Ref, log.String())
	}
}

// entryKey is the key of the folder's entry whose reference is ref.
func entryKey(t *testing.T, dir, ref string) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, p := range m {
		data, _ := os.ReadFile(p)
		var e struct{ Key, Reference string }
		if json.Unmarshal(data, &e) == nil && e.Reference == ref {
			return e.Key
		}
	}
	t.Fatalf("no entry for %s in the cache folder", ref)
	return ""
}

// forgeConfig rewrites the archive's image config (an Env added: what a
// forger would change to take over what runs, its labels untouched) and
// returns the forged image's digest.
func forgeConfig(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	files, order := map[string][]byte{}, []*tar.Header{}
	tr := tar.NewReader(bytes.NewReader(data))
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		files[h.Name], _ = io.ReadAll(tr)
		order = append(order, h)
	}
	var m []map[string]any
	json.Unmarshal(files["manifest.json"], &m)
	oldName := m[0]["Config"].(string)
	var cfg map[string]any
	json.Unmarshal(files[oldName], &cfg)
	c := cfg["config"].(map[string]any)
	c["Env"] = append(c["Env"].([]any), "FORGED=1")
	newCfg, _ := json.Marshal(cfg)
	sum := sha256.Sum256(newCfg)
	newName := hex.EncodeToString(sum[:]) + ".json"
	m[0]["Config"] = newName
	files["manifest.json"], _ = json.Marshal(m)
	var out bytes.Buffer
	tw := tar.NewWriter(&out)
	for _, h := range order {
		body := files[h.Name]
		switch h.Name {
		case oldName:
			h.Name, body = newName, newCfg
		case "manifest.json":
		default:
			if h.Typeflag != tar.TypeReg {
				body = nil
			}
		}
		h.Size = int64(len(body))
		if h.Typeflag != tar.TypeReg {
			h.Size = 0
		}
		tw.WriteHeader(h)
		tw.Write(body)
	}
	tw.Close()
	if err := os.WriteFile(path, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return "sha256:" + hex.EncodeToString(sum[:])
}

// forgeEntry makes the entry agree with its forged archive: the forged
// digest, the archive's size and sha256 (its signature is left as it was).
func forgeEntry(t *testing.T, entry, archive, id string) {
	t.Helper()
	var e map[string]any
	data, _ := os.ReadFile(entry)
	json.Unmarshal(data, &e)
	a, _ := os.ReadFile(archive)
	sum := sha256.Sum256(a)
	e["id"], e["size"], e["sha256"] = id, len(a), hex.EncodeToString(sum[:])
	data, _ = json.Marshal(e)
	if err := os.WriteFile(entry, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
