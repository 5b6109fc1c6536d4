package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Default is the driver a verb dials unless told otherwise (--driver).
const Default = "docker"

// Opener dials a driver's engine (where, the driver's own settings say:
// DOCKER_HOST or a docker context for Docker); the caller closes what it returns.
type Opener func(ctx context.Context) (Driver, error)

var registry struct {
	sync.Mutex
	open map[string]Opener
}

// Register makes a driver known by name; a driver's package calls it from
// init, so that importing the package is what makes the driver available.
// Registering a name twice, or an empty one, is a programming error.
func Register(name string, open Opener) {
	registry.Lock()
	defer registry.Unlock()
	if name == "" || open == nil {
		panic("engine.Register: a driver needs a name and an Opener")
	}
	if _, dup := registry.open[name]; dup {
		panic("engine.Register: driver " + name + " registered twice")
	}
	if registry.open == nil {
		registry.open = map[string]Opener{}
	}
	registry.open[name] = open
}

// Drivers are the registered drivers' names, sorted.
func Drivers() []string {
	registry.Lock()
	defer registry.Unlock()
	names := make([]string, 0, len(registry.open))
	for n := range registry.open {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Known says whether a driver of that name is registered; when it is not,
// the error names the ones that are.
func Known(name string) error {
	registry.Lock()
	_, ok := registry.open[name]
	registry.Unlock()
	if !ok {
		return &UnknownDriverError{Name: name, Drivers: Drivers()}
	}
	return nil
}

// Open dials the engine of the driver registered as name.
func Open(ctx context.Context, name string) (Driver, error) {
	if err := Known(name); err != nil {
		return nil, err
	}
	registry.Lock()
	open := registry.open[name]
	registry.Unlock()
	return open(ctx)
}

// Choice is the driver a process dials: chosen once by name (it is the
// flag.Value of a verb's --driver) and read by whoever dials, the verb and
// then its hard exit, so it is safe for concurrent use. Its zero value
// dials Default.
type Choice struct {
	mu   sync.Mutex
	name string
}

// String is the name chosen ("" before one is).
func (c *Choice) String() string {
	if c == nil {
		return ""
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.name
}

// Set chooses the driver called name; a name no driver registered is
// refused (Known), naming the drivers there are.
func (c *Choice) Set(name string) error {
	if err := Known(name); err != nil {
		return err
	}
	c.mu.Lock()
	c.name = name
	c.mu.Unlock()
	return nil
}

// Open dials the engine of the driver chosen, Default when none was.
func (c *Choice) Open(ctx context.Context) (Driver, error) {
	name := c.String()
	if name == "" {
		name = Default
	}
	return Open(ctx, name)
}

// UnknownDriverError says no driver is registered under Name.
type UnknownDriverError struct {
	Name    string
	Drivers []string // the registered ones
}

func (e *UnknownDriverError) Error() string {
	if len(e.Drivers) == 0 {
		return fmt.Sprintf("no engine driver %q: none is registered (this build links no driver)", e.Name)
	}
	return fmt.Sprintf("no engine driver %q: choose one of %s", e.Name, strings.Join(e.Drivers, ", "))
}
