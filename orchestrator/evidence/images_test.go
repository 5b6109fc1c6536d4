package evidence

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
)

// dockerArchive is a docker-save archive of one image whose only file holds
// content, tagged tags; it returns the archive and the image's digest.
func dockerArchive(t *testing.T, content string, tags []string) ([]byte, string) {
	t.Helper()
	var layer bytes.Buffer
	lw := tar.NewWriter(&layer)
	lw.WriteHeader(&tar.Header{Name: "hello", Mode: 0o644, Size: int64(len(content)), Typeflag: tar.TypeReg, ModTime: time.Unix(0, 0)})
	lw.Write([]byte(content))
	lw.Close()
	diff := sha256.Sum256(layer.Bytes())
	config, _ := json.Marshal(map[string]any{
		"architecture": runtime.GOARCH, "os": "linux", "config": map[string]any{},
		"rootfs": map[string]any{"type": "layers", "diff_ids": []string{"sha256:" + hex.EncodeToString(diff[:])}},
	})
	id := sha256.Sum256(config)
	idHex := hex.EncodeToString(id[:])
	manifest, _ := json.Marshal([]map[string]any{{"Config": idHex + ".json", "RepoTags": tags, "Layers": []string{"layer0/layer.tar"}}})
	var out bytes.Buffer
	tw := tar.NewWriter(&out)
	for _, f := range []struct {
		name string
		data []byte
	}{{idHex + ".json", config}, {"layer0/layer.tar", layer.Bytes()}, {"manifest.json", manifest}} {
		tw.WriteHeader(&tar.Header{Name: f.name, Mode: 0o644, Size: int64(len(f.data)), Typeflag: tar.TypeReg})
		tw.Write(f.data)
	}
	tw.Close()
	return out.Bytes(), "sha256:" + idHex
}

// A bundle whose images.tar also tags halebench/toolchain-node:<tag> (an
// image this engine has and later runs would reuse) is refused before
// anything is loaded, and that tag still names the engine's own image. The
// same bundle without the extra tag loads, but only under the replay's
// namespace: the halebench/ reference it records is never made, and the
// namespaced one is never overwritten by a second load.
func TestLoadImagesRefusesForeignTags(t *testing.T) {
	eng := enginetest.Connect(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	tag := fmt.Sprintf("h5test-%d", time.Now().UnixNano())
	node, base, ns := "halebench/toolchain-node:"+tag, "halebench/base:"+tag, ReplayPrefix+"/"+tag
	hostArchive, nodeID := dockerArchive(t, "the host's node toolchain "+tag, []string{node})
	hostile, bundleID := dockerArchive(t, "the bundle's base "+tag, []string{base, node})
	clean, cleanID := dockerArchive(t, "the bundle's base "+tag, []string{base})
	if cleanID != bundleID {
		t.Fatalf("the two archives hold different images: %s, %s", cleanID, bundleID)
	}
	t.Cleanup(func() {
		for _, ref := range []string{node, base, ns + "/base:" + tag, bundleID, nodeID} {
			eng.RemoveImage(context.Background(), ref)
		}
	})
	if err := eng.Load(ctx, bytes.NewReader(hostArchive)); err != nil {
		t.Fatal(err)
	}
	if img, ok, err := eng.Image(ctx, node); err != nil || !ok || img.ID != nodeID {
		t.Fatalf("the host's %s: %v %v %v", node, img.ID, ok, err)
	}
	m := &Manifest{Schema: ManifestSchema, Images: map[string]string{base: bundleID}}
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}

	_, err := LoadImages(ctx, eng, m, write("hostile.tar", hostile), ns)
	if err == nil || !strings.Contains(err.Error(), "as "+node) {
		t.Fatalf("hostile archive: err = %v, want it refused for tagging %s", err, node)
	}
	if img, ok, _ := eng.Image(ctx, node); !ok || img.ID != nodeID {
		t.Fatalf("%s moved to %s (ok %v): the refused archive was loaded", node, img.ID, ok)
	}
	for _, ref := range []string{base, bundleID, ns + "/base:" + tag} {
		if _, ok, _ := eng.Image(ctx, ref); ok {
			t.Fatalf("%s exists after a refused load", ref)
		}
	}

	renamed, err := LoadImages(ctx, eng, m, write("clean.tar", clean), ns)
	if err != nil {
		t.Fatal(err)
	}
	if renamed[base] != ns+"/base:"+tag {
		t.Fatalf("loaded as %v", renamed)
	}
	if img, ok, _ := eng.Image(ctx, renamed[base]); !ok || img.ID != bundleID {
		t.Fatalf("%s: %s %v, want %s", renamed[base], img.ID, ok, bundleID)
	}
	if _, ok, _ := eng.Image(ctx, base); ok {
		t.Fatalf("%s was made: a replay loads only under its namespace", base)
	}
	if img, ok, _ := eng.Image(ctx, node); !ok || img.ID != nodeID {
		t.Fatalf("%s moved", node)
	}
	if _, err := LoadImages(ctx, eng, m, write("again.tar", clean), ns); err == nil || !strings.Contains(err.Error(), "already exists") {
		t.Fatalf("a second load into the same namespace: err = %v, want a refusal", err)
	}
}

// A bundle's manifest may list only images halebench made, loaded only
// into the replay namespace.
func TestReplayRefs(t *testing.T) {
	id := "sha256:" + strings.Repeat("ab", 32)
	images := map[string]string{"halebench/base:x": id}
	if _, err := replayRefs(map[string]string{"debian:latest": id}, "halebench-replay/r1"); err == nil {
		t.Error("a bundle listing a non-halebench image was accepted")
	}
	if _, err := replayRefs(images, "halebench/r1"); err == nil {
		t.Error("a namespace outside halebench-replay/ was accepted")
	}
}
