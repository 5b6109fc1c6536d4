package docker_test

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine/docker"
)

// An engine that answers the API but has no BuildKit: a clear error naming
// the endpoint, within seconds.
func TestBuildKitUnavailable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Api-Version", "1.41")
		if strings.HasSuffix(r.URL.Path, "/_ping") {
			w.Write([]byte("OK"))
			return
		}
		http.Error(w, "page not found", http.StatusNotFound)
	})}
	go srv.Serve(ln)
	defer srv.Close()
	t.Setenv("DOCKER_HOST", "tcp://"+ln.Addr().String())
	eng, err := docker.Connect(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	start := time.Now()
	_, err = eng.BuildKit(context.Background())
	if err == nil || !strings.Contains(err.Error(), "buildkit") || !strings.Contains(err.Error(), ln.Addr().String()) {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Fatalf("took %s", d)
	}
}
