package docker

import (
	"context"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// A build goes to the image store or to a folder, never both or neither:
// refused before BuildKit is asked anything, saying what to give.
func TestBuildNeedsOneExport(t *testing.T) {
	for _, b := range []engine.Build{
		{Context: ".", Dockerfile: ".", What: "neither"},
		{Context: ".", Dockerfile: ".", Image: "x:1", Dir: t.TempDir(), What: "both"},
	} {
		_, err := (&BuildKit{}).Build(context.Background(), b)
		if err == nil || !strings.Contains(err.Error(), "building "+b.What) || !strings.Contains(err.Error(), "one of them") {
			t.Errorf("%s: err = %v", b.What, err)
		}
	}
}

// The dockerfile frontend's attributes: build arguments prefixed, labels
// and the RUN steps' network passed as they are, no-cache when asked, and
// a session key of the build's own.
func TestSolveOpt(t *testing.T) {
	dir := t.TempDir()
	b := engine.Build{Context: dir, Dockerfile: dir, Args: map[string]string{"BASE": "b:1", "label:x": "y", "force-network-mode": "none"}, NoCache: true, Dir: dir}
	o1, err := solveOpt(b)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"filename": "Dockerfile", "build-arg:BASE": "b:1", "label:x": "y", "force-network-mode": "none", "no-cache": ""}
	for k, v := range want {
		if got, ok := o1.FrontendAttrs[k]; !ok || got != v {
			t.Errorf("attr %s = %q (%v), want %q", k, got, ok, v)
		}
	}
	if len(o1.FrontendAttrs) != len(want) {
		t.Errorf("attrs %v, want %v", o1.FrontendAttrs, want)
	}
	if len(o1.Exports) != 1 || o1.Exports[0].Type != "local" || o1.Exports[0].OutputDir != dir {
		t.Errorf("exports %+v, want one local to %s", o1.Exports, dir)
	}
	o2, err := solveOpt(engine.Build{Context: dir, Dockerfile: dir, Image: "r:1"})
	if err != nil {
		t.Fatal(err)
	}
	if len(o2.Exports) != 1 || o2.Exports[0].Type != "moby" || o2.Exports[0].Attrs["name"] != "r:1" {
		t.Errorf("exports %+v, want one moby named r:1", o2.Exports)
	}
	if o1.SharedKey == o2.SharedKey || !strings.HasPrefix(o1.SharedKey, "halebench-") {
		t.Errorf("session keys %q and %q: want one of each build's own", o1.SharedKey, o2.SharedKey)
	}
}
