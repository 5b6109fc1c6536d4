package main

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The verbs' own behaviour — exit codes, what they write where, what they
// refuse — is tested on the in-memory fake engine (orchestrator/enginetest's
// "fake" driver) through a halebench binary built with -tags halebench_fake:
// nothing runs in a container, so such a test takes a second and needs no
// engine. What an engine does (containers, pinning, privilege, BuildKit,
// counts, escapes) is tested on the engine: the driver's conformance suite,
// runner, session, image and the executor's own tests, and here the tests
// that say they need it (enginetest.Connect).

var fake struct {
	once       sync.Once
	bin, cache string
	err        error
}

// fakeCacheKey signs the fake runs' cache entries, so a restore is trusted
// as a build is (a restore no key vouches for runs unprivileged).
const fakeCacheKey = "halebench-tests-fake-driver-cache-0123456789"

// fakeRun runs a verb (args[0]) of the fake-driver binary with
// --driver=fake and a cache folder all of this test binary's fake runs
// share: the fake's image store lives only as long as its process, so the
// first fake run assembles the Debian base (fetching its packages, as a
// build on the engine does) and the later ones restore it from the folder.
func fakeRun(t *testing.T, env []string, args ...string) (int, string, string) {
	t.Helper()
	fake.once.Do(func() {
		fake.bin, fake.cache = filepath.Join(binDir, "halebench-fake"), filepath.Join(binDir, "fake-cache")
		if out, err := exec.Command("go", "build", "-tags", "halebench_fake", "-o", fake.bin, ".").CombinedOutput(); err != nil {
			fake.err = fmt.Errorf("go build -tags halebench_fake: %v\n%s", err, out)
		}
	})
	if fake.err != nil {
		t.Fatalf("building halebench with the fake driver: %v", fake.err)
	}
	full := append([]string{args[0], "--driver=fake", "--cache-dir=" + fake.cache}, args[1:]...)
	return runBin(t, fake.bin, append([]string{"HALEBENCH_CACHE_KEY=" + fakeCacheKey}, env...), full...)
}

// The product's binary has no fake: only the tagged build offers it.
func TestOnlyATestBuildHasTheFake(t *testing.T) {
	code, _, errOut := run(t, nil, "run", "--driver=fake")
	if code != 2 || !strings.Contains(errOut, `no engine driver "fake"`) {
		t.Fatalf("run --driver=fake on the product binary: exit %d, %s; want 2 refusing it", code, errOut)
	}
}
