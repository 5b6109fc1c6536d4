// Package enginetest connects tests to the real engine. A test that needs the
// engine skips with the reason when none answers — except under CI=true,
// where a missing engine is a failure, never a skip.
package enginetest

import (
	"context"
	"os"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// Connect returns a connected engine or ends the test.
func Connect(t testing.TB) *engine.Engine {
	t.Helper()
	e, err := engine.Connect(context.Background())
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("CI=true and no engine: %v", err)
		}
		t.Skipf("needs a Docker Engine: %v", err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}
