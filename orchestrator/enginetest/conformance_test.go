package enginetest_test

import (
	"context"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
)

// The fake keeps the driver contract, as far as its Features say it goes.
func TestFakeConformance(t *testing.T) {
	enginetest.Conformance(t, func(t *testing.T) engine.Driver {
		d, err := engine.Open(context.Background(), "fake")
		if err != nil {
			t.Fatal(err)
		}
		return d
	})
}
