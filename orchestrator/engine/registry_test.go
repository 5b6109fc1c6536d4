package engine_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// A driver is found by the name it registered; an unknown name is refused
// before anything is dialled, naming the drivers there are.
func TestRegistry(t *testing.T) {
	opened := 0
	engine.Register("registry-test", func(context.Context) (engine.Driver, error) {
		opened++
		return nil, errors.New("dialled")
	})
	if !slices.Contains(engine.Drivers(), "registry-test") {
		t.Fatalf("Drivers() = %v, want registry-test among them", engine.Drivers())
	}
	if _, err := engine.Open(context.Background(), "registry-test"); err == nil || err.Error() != "dialled" || opened != 1 {
		t.Fatalf("Open(registry-test): err %v, opened %d; want the driver's own error, dialled once", err, opened)
	}
	_, err := engine.Open(context.Background(), "no-such")
	var unknown *engine.UnknownDriverError
	if !errors.As(err, &unknown) || !strings.Contains(err.Error(), "registry-test") || opened != 1 {
		t.Fatalf("Open(no-such): %v (opened %d); want an UnknownDriverError naming registry-test", err, opened)
	}
	defer func() {
		if recover() == nil {
			t.Errorf("registering registry-test twice did not panic")
		}
	}()
	engine.Register("registry-test", func(context.Context) (engine.Driver, error) { return nil, nil })
}
