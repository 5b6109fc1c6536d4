package enginetest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// Connect returns the Docker driver, connected, or ends the test.
func Connect(t testing.TB) engine.Driver {
	t.Helper()
	if err := engine.Known("docker"); err != nil {
		t.Fatalf("%v: a test package that dials the real engine links its driver (a _test.go importing _ \".../orchestrator/engine/docker\")", err)
	}
	e, err := engine.Open(context.Background(), "docker")
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and no engine: %v", err)
		}
		t.Skipf("needs a Docker Engine: %v", err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// BenchImage returns the shared bench image of one language and the
// privilege the engine grants run containers. The image holds every test
// program of that language the suite's engine tests use (SharedSources) and
// the given paths, each as unit <file stem>. Every package's tests thus ask
// for the same image: the first `go test` process to need it builds it, the
// others find it by its content-addressed tag (one build per `go test` run,
// not per package), and a process asks the engine once per image.
func BenchImage(t testing.TB, e engine.Driver, lang string, paths ...string) (string, engine.Privilege) {
	t.Helper()
	l, ok := suite.ByName(lang)
	if !ok {
		t.Fatalf("no language %s", lang)
	}
	srcs, err := sharedSet(l, paths)
	if err != nil {
		t.Fatal(err)
	}
	key := lang
	for _, s := range srcs {
		key += "\x00" + s.Path
	}
	shared.Lock()
	defer shared.Unlock()
	if img, ok := shared.imgs[key]; ok {
		return img.ref, img.priv
	}
	img, err := buildShared(e, l, srcs)
	if err != nil {
		t.Fatal(err)
	}
	if shared.imgs == nil {
		shared.imgs = map[string]sharedImage{}
	}
	shared.imgs[key] = img
	return img.ref, img.priv
}

type sharedImage struct {
	ref  string
	priv engine.Privilege
}

// shared holds this process's bench images, by language and sources.
var shared struct {
	sync.Mutex
	imgs map[string]sharedImage
}

func buildShared(e engine.Driver, l suite.Language, srcs []image.Source) (sharedImage, error) {
	ctx := context.Background()
	bk, err := e.Builder(ctx)
	if err != nil {
		return sharedImage{}, err
	}
	defer bk.Close()
	var log strings.Builder
	info, err := e.Info(ctx)
	if err != nil {
		return sharedImage{}, err
	}
	b := image.New(e, bk, &log, image.Options{RunID: "enginetest", EngineArch: info.Arch})
	bi, err := b.BenchImage(ctx, l, srcs)
	if err != nil {
		return sharedImage{}, fmt.Errorf("%w\n%s", err, log.String())
	}
	priv, _, err := e.ProbePrivilege(ctx, bi.Ref, "enginetest", false)
	if err != nil {
		return sharedImage{}, err
	}
	return sharedImage{ref: bi.Ref, priv: priv}, nil
}

// Lister lists a run's containers: what NoLeftovers needs of a driver.
type Lister interface {
	Leftovers(ctx context.Context, runID string) ([]string, error)
}

var _ Lister = engine.Driver(nil)

// NoLeftovers fails the test if any container of the run is still there.
func NoLeftovers(t testing.TB, e Lister, runID string) {
	t.Helper()
	ids, err := e.Leftovers(context.Background(), runID)
	if err != nil {
		t.Fatal(err)
	}
	if len(ids) > 0 {
		t.Fatalf("%d halebench containers of run %s left behind: %v", len(ids), runID, ids)
	}
}

// Dialler dials a builder: what BuildKit needs of a driver.
type Dialler interface {
	Builder(ctx context.Context) (engine.Builder, error)
}

var _ Dialler = engine.Driver(nil)

// BuildKit is the engine's builder for one test, closed when the
// test ends; a test that cannot reach it fails.
func BuildKit(t testing.TB, e Dialler) engine.Builder {
	t.Helper()
	bk, err := e.Builder(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bk.Close() })
	return bk
}
