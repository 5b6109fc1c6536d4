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

// barrier is a Builder whose toolchains each wait until every one asked
// for is being made at once, and whose bench images likewise (or give up
// after a while): it tells images made side by side from images made one
// after another.
type barrier struct {
	want    int
	mu      sync.Mutex
	started int
	all     chan struct{}
	benches []string
	inBench chan struct{} // closed when every bench image is being made
	failing string
}

func (f *barrier) SamplerToolchain(context.Context) (image.Toolchain, error) {
	return image.Toolchain{Status: image.Available}, nil
}

func (f *barrier) Base(context.Context) (image.Base, error) { return image.Base{Ref: "base"}, nil }

func (f *barrier) Toolchain(ctx context.Context, l suite.Language) (image.Toolchain, error) {
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

func (f *barrier) BenchImage(_ context.Context, l suite.Language, _ []image.Source) (image.BenchImage, error) {
	f.mu.Lock()
	f.benches = append(f.benches, l.Name)
	if len(f.benches) == f.want-1 {
		close(f.inBench)
	}
	f.mu.Unlock()
	select {
	case <-f.inBench:
	case <-time.After(5 * time.Second):
		return image.BenchImage{}, errors.New("bench image made alone: the others were not being made at the same time")
	}
	return image.BenchImage{Ref: "bench-" + l.Name}, nil
}

// A cold start makes every language's toolchain at once, and their bench
// images at once; the languages are recorded in the order asked, and a
// toolchain that fails is recorded while the others go on.
func TestToolchainsSideBySide(t *testing.T) {
	var langs []suite.Language
	for _, n := range []string{"python", "c", "rust", "node"} {
		l, _ := suite.ByName(n)
		langs = append(langs, l)
	}
	f := &barrier{want: len(langs), all: make(chan struct{}), inBench: make(chan struct{}), failing: "rust"}
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
	if len(imgs.Benches) != 3 || imgs.Benches["python"].Ref != "bench-python" || imgs.Benches["c"].Ref != "bench-c" || imgs.Benches["node"].Ref != "bench-node" {
		t.Errorf("bench images %v, want python's, c's and node's", imgs.Benches)
	}
}

// failing is a Builder whose toolchain of one language errs (the engine
// went away, say) and, when samplerErr is set, whose sampler's toolchain does.
type failing struct {
	barrier
	errLang    string
	samplerErr error
}

func (f *failing) SamplerToolchain(context.Context) (image.Toolchain, error) {
	return image.Toolchain{Status: image.Available}, f.samplerErr
}

func (f *failing) Toolchain(_ context.Context, l suite.Language) (image.Toolchain, error) {
	if l.Name == f.errLang {
		return image.Toolchain{}, errors.New("engine gone")
	}
	return image.Toolchain{Lang: l.Name, Status: image.Available}, nil
}

func (f *failing) BenchImage(_ context.Context, l suite.Language, _ []image.Source) (image.BenchImage, error) {
	return image.BenchImage{Ref: "bench-" + l.Name}, nil
}

// An error stops BuildImages with what came before it in the order asked
// recorded; the sampler's toolchain failing is said as that.
func TestBuildImagesErrors(t *testing.T) {
	var langs []suite.Language
	for _, n := range []string{"python", "c", "node"} {
		l, _ := suite.ByName(n)
		langs = append(langs, l)
	}
	need := Need{Langs: langs, Sources: func(suite.Language) []image.Source { return []image.Source{{Unit: "x"}} }}
	imgs, err := BuildImages(context.Background(), &failing{errLang: "c"}, need, io.Discard)
	if err == nil || err.Error() != "engine gone" {
		t.Fatalf("err %v", err)
	}
	if len(imgs.Order) != 1 || imgs.Order[0] != "python" || imgs.Benches["python"].Ref != "bench-python" {
		t.Errorf("recorded %v %v, want python's alone", imgs.Order, imgs.Benches)
	}
	_, err = BuildImages(context.Background(), &failing{samplerErr: errors.New("no go toolchain")}, need, io.Discard)
	if err == nil || err.Error() != "no go toolchain" {
		t.Errorf("sampler: %v", err)
	}
}
