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

// A process's choice of driver: Default until one is chosen, an unknown
// name refused (the choice kept), a known one dialled from then on.
func TestChoice(t *testing.T) {
	engine.Register("choice-test", func(context.Context) (engine.Driver, error) { return nil, errors.New("choice-test dialled") })
	var c engine.Choice
	if _, err := c.Open(context.Background()); c.String() != "" || err == nil || !strings.Contains(err.Error(), `"`+engine.Default+`"`) {
		t.Fatalf("zero choice: %q, Open: %v; want Default (not linked in this test) asked for", c.String(), err)
	}
	if err := c.Set("no-such"); err == nil || !strings.Contains(err.Error(), `no engine driver "no-such"`) || c.String() != "" {
		t.Fatalf("unknown: %v, chosen %q", err, c.String())
	}
	if err := c.Set("choice-test"); err != nil || c.String() != "choice-test" {
		t.Fatalf("known: %v, chosen %q", err, c.String())
	}
	if _, err := c.Open(context.Background()); err == nil || err.Error() != "choice-test dialled" {
		t.Fatalf("Open: %v", err)
	}
}
