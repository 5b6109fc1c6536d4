package enginetest

import (
	"os"
	"strings"
	"testing"
)

// SlowEnv is what `make test-slow` sets to run the slow tests.
const SlowEnv = "HALEBENCH_SLOW"

// SlowPrefix starts the name of every slow test, so that `make test-slow`
// can select them all with one -run pattern and a new one cannot be missed.
const SlowPrefix = "TestSlow"

// Slow marks a test that is too heavy for `make test` (a no-cache rebuild of
// every image, a hale-cli build): it runs only when SlowEnv=1, as `make
// test-slow` (and .ci/run after `make test`) asks. A slow test must be named
// SlowPrefix…; one that is not fails, since `make test-slow` would never
// select it.
func Slow(t testing.TB) {
	t.Helper()
	if !strings.HasPrefix(t.Name(), SlowPrefix) {
		t.Fatalf("%s is marked slow but its name does not start with %s: rename it so that `make test-slow` runs it", t.Name(), SlowPrefix)
	}
	if os.Getenv(SlowEnv) != "1" {
		t.Skipf("slow test: runs with `make test-slow` (%s=1), which .ci/run runs after `make test`", SlowEnv)
	}
}
