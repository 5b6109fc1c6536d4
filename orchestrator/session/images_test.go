package session

import (
	"context"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// sideBySide is a Builder whose toolchains each wait until every one asked
// for is being made at once (or give up after a while): it tells toolchains
// made side by side from toolchains made one after another.
type sideBySide struct {
	want    int
	mu      sync.Mutex
	started int
	all     chan struct{}
	benches []string
	failing string
}

func (f *sideBySide) SamplerToolchain(context.Context) (image.Toolchain, error) {
	return image.Toolchain{Status: image.Available}, nil
}

func (f *sideBySide) Base(context.Context) (image.Base, error) { return image.Base{Ref: "base"}, nil }

func (f *sideBySide) Toolchain(ctx context.Context, l suite.Language) (image.Toolchain, error) {
	f.mu.Lock()
	f.started++
	if f.started == f.want {
		close(f.all)
	}
	f.mu.Unlock()
	select {
	case <-f.all:
	case <-time.After(5 * time.Second):
		return image.Toolchain{}, errors.New("made alone: the other toolchains were not being made at the same time")
	}
	if l.Name == f.failing {
		return image.Toolchain{Lang: l.Name, Status: image.BuildFailed, Reason: "apt failed"}, nil
	}
	return image.Toolchain{Lang: l.Name, Status: image.Available, Ref: "tc-" + l.Name}, nil
}

func (f *sideBySide) BenchImage(_ context.Context, l suite.Language, _ []image.Source) (image.BenchImage, error) {
	f.mu.Lock()
	f.benches = append(f.benches, l.Name)
	f.mu.Unlock()
	return image.BenchImage{Ref: "bench-" + l.Name}, nil
}

// A cold start makes every language's toolchain at once, then the bench
// images one after another in the order asked; a toolchain that fails is
// recorded and the others go on.
func TestToolchainsSideBySide(t *testing.T) {
	var langs []suite.Language
	for _, n := range []string{"python", "c", "rust", "node"} {
		l, _ := suite.ByName(n)
		langs = append(langs, l)
	}
	f := &sideBySide{want: len(langs), all: make(chan struct{}), failing: "rust"}
	need := Need{Langs: langs, Sources: func(suite.Language) []image.Source { return []image.Source{{Unit: "x"}} }}
	imgs, err := BuildImages(context.Background(), f, need, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if got := imgs.Order; len(got) != 4 || got[0] != "python" || got[1] != "c" || got[2] != "rust" || got[3] != "node" {
		t.Errorf("order %v, want the order asked", got)
	}
	if tc := imgs.Toolchains["rust"]; tc.Status != image.BuildFailed {
		t.Errorf("rust: %+v", tc)
	}
	if len(f.benches) != 3 || f.benches[0] != "python" || f.benches[1] != "c" || f.benches[2] != "node" {
		t.Errorf("bench images built for %v, want python, c, node in that order", f.benches)
	}
}
