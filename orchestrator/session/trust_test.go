package session_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/collect"
	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/session"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// A cache folder whose bench image was altered (a forged config blob, so a
// new digest, its labels still claiming this run's inputs, its entry
// pointed at it) passes every check an entry makes of itself. Without a key it
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
	goLang, _ := suite.ByName("go")
	srcs := []image.Source{{Unit: "trust", Path: "testdata/trust.go"}}
	var log bytes.Buffer
	openSession := func(sign []byte) (*session.Session, image.BenchImage) {
		t.Helper()
		log.Reset()
		s, err := session.Open(ctx, session.Options{Kind: "test", Engine: eng, Log: &log,
			Images: image.Options{CacheDir: dir, CacheKey: sign}})
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
	privilege := func(s *session.Session) (engine.Privilege, []engine.Attempt) {
		t.Helper()
		sp, err := s.Ready(ctx)
		if err != nil {
			t.Fatal(err)
		}
		p, refused := sp.Privilege()
		s.Close()
		return p, refused
	}
	s, genuine := openSession(key)
	privilege(s)
	if genuine.Provenance == nil || !genuine.Provenance.Trusted {
		t.Fatalf("an image built or found here is not trusted: %+v\n%s", genuine.Provenance, log.String())
	}
	bkey := entryKey(t, dir, genuine.Ref)
	forged := forgeConfig(t, dir, filepath.Join(dir, bkey+".json"))
	if err := eng.RemoveImage(ctx, genuine.Ref); err != nil {
		t.Fatal(err)
	}

	s, bi := openSession(nil)
	t.Cleanup(func() { _ = eng.RemoveImage(context.Background(), bi.Ref) })
	p, refused := privilege(s)
	rec := collect.BenchImage(bi).Provenance
	if bi.ID != forged || !strings.HasPrefix(bi.Ref, "halebench-restored/") || rec == nil || rec.Origin != "restored" || rec.Checked != "none" || rec.Trusted {
		t.Fatalf("without a key: image %s (%s), provenance %+v; want the forged %s, restored unverified\n%s", bi.Ref, bi.ID, rec, forged, log.String())
	}
	if p.Mode != engine.ModeUnprivileged || len(refused) == 0 || !strings.Contains(refused[0].Error, "withheld by halebench") {
		t.Fatalf("without a key the forged image ran %s (refusals %+v)\n%s", p, refused, log.String())
	}
	if _, ok, _ := eng.Image(ctx, genuine.Ref); ok {
		t.Fatalf("the unverified image was loaded under %s, which a later run would trust", genuine.Ref)
	}

	s, bi = openSession(key)
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
	s, bi = openSession(key)
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

// forgeConfig writes a forged copy of the entry's image config into the
// folder (an Env added: what a forger would change to take over what runs,
// its labels and layers untouched) and points the entry at it, its
// signature left as it was; it returns the forged image's digest.
func forgeConfig(t *testing.T, dir, entry string) string {
	t.Helper()
	var e map[string]any
	data, _ := os.ReadFile(entry)
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatal(err)
	}
	blobs := filepath.Join(dir, "blobs", "sha256")
	data, err := os.ReadFile(filepath.Join(blobs, strings.TrimPrefix(e["id"].(string), "sha256:")))
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	json.Unmarshal(data, &cfg)
	c := cfg["config"].(map[string]any)
	c["Env"] = append(c["Env"].([]any), "FORGED=1")
	newCfg, _ := json.Marshal(cfg)
	sum := sha256.Sum256(newCfg)
	if err := os.WriteFile(filepath.Join(blobs, hex.EncodeToString(sum[:])), newCfg, 0o644); err != nil {
		t.Fatal(err)
	}
	id := "sha256:" + hex.EncodeToString(sum[:])
	e["id"], e["config"] = id, map[string]any{"digest": id, "size": len(newCfg)}
	data, _ = json.Marshal(e)
	if err := os.WriteFile(entry, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return id
}
