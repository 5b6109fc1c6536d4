package image_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-containerregistry/pkg/name"
	"github.com/google/go-containerregistry/pkg/registry"
	"github.com/google/go-containerregistry/pkg/v1/random"
	"github.com/google/go-containerregistry/pkg/v1/remote"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/image"
)

// loopbackRegistry starts a registry on 127.0.0.1 (which the engine treats
// as a plain-HTTP registry) holding one small image, and returns its
// address and the image's manifest digest. A manifest asked for by the
// digest forged is answered with that image's manifest instead, as a
// registry lying about content would; requests counts every request.
func loopbackRegistry(t *testing.T, forged string, requests *atomic.Int64) (string, string) {
	t.Helper()
	reg := registry.New(registry.Logger(log.New(io.Discard, "", 0)))
	var real atomic.Value
	real.Store("")
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		if d := real.Load().(string); d != "" && strings.HasSuffix(r.URL.Path, "/manifests/"+forged) {
			r.URL.Path = strings.TrimSuffix(r.URL.Path, forged) + d
		}
		reg.ServeHTTP(w, r)
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(h)
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	addr := l.Addr().String()
	img, err := random.Image(512, 1)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := name.ParseReference(addr+"/halebench-test/base:trixie", name.Insecure)
	if err != nil {
		t.Fatal(err)
	}
	if err := remote.Write(ref, img); err != nil {
		t.Fatalf("pushing to the loopback registry: %v", err)
	}
	d, err := img.Digest()
	if err != nil {
		t.Fatal(err)
	}
	real.Store(d.String())
	return addr, d.String()
}

// --base-image pulls a base pinned by digest from a registry (here one
// the test starts on loopback), refuses a tag without a digest before
// asking any registry, and refuses a digest the registry has not got or
// serves other content for.
func TestBaseImagePulledPinnedByDigest(t *testing.T) {
	eng := enginetest.Connect(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	forged := "sha256:" + strings.Repeat("ab", 32)
	var requests atomic.Int64
	addr, digest := loopbackRegistry(t, forged, &requests)
	repo := addr + "/halebench-test/base"
	base := func(ref string) (image.Base, error) {
		return image.New(eng, nil, &bytes.Buffer{}, image.Options{BaseImage: ref}).Base(ctx)
	}

	before := requests.Load()
	if _, err := base(repo + ":trixie"); err == nil || !strings.Contains(err.Error(), "pinned by digest") {
		t.Errorf("a tag without digest: err = %v, want a refusal asking for REPO@sha256:…", err)
	}
	if n := requests.Load() - before; n != 0 {
		t.Errorf("a tag without digest made %d registry requests, want none", n)
	}

	for _, d := range []string{forged, "sha256:" + strings.Repeat("cd", 32)} {
		if _, err := base(repo + "@" + d); err == nil || !strings.Contains(err.Error(), "could not be pulled") {
			t.Errorf("digest %s (served other content, or absent): err = %v, want refused", d, err)
		}
	}

	ref := repo + "@" + digest
	t.Cleanup(func() { _ = eng.RemoveImage(context.Background(), ref) })
	got, err := base(ref)
	if err != nil {
		t.Fatalf("pull pinned by its digest: %v", err)
	}
	if got.Origin != "pulled with --base-image" || got.Ref != ref || got.ID == "" {
		t.Fatalf("base = %+v, want %s pulled", got, ref)
	}
	img, ok, err := eng.Image(ctx, ref)
	if err != nil || !ok || fmt.Sprint(img.RepoDigests) != fmt.Sprint([]string{ref}) {
		t.Fatalf("after the pull: %+v %v %v, want repo digest %s", img, ok, err, ref)
	}
}
