// The engine the verbs run on: cmd wires the drivers in (importing a
// driver's package registers it) and dials the one --driver names; nothing
// below it dials.

package main

import (
	"context"
	"flag"
	"strings"
	"sync"

	"github.com/hale-lang/halebench/orchestrator/engine"
	_ "github.com/hale-lang/halebench/orchestrator/engine/docker" // registers "docker"
)

// driver is the engine driver this process dials (--driver): the verb's,
// then the hard exit's, which removes what the verb made on it.
var driver struct {
	sync.Mutex
	name string
}

func driverName() string {
	driver.Lock()
	defer driver.Unlock()
	if driver.name == "" {
		return engine.Default
	}
	return driver.name
}

// driverFlag is --driver: a name no driver registered is refused as the
// flags are parsed, naming the drivers there are.
type driverFlag struct{}

func (driverFlag) String() string { return "" }

func (driverFlag) Set(name string) error {
	if err := engine.Known(name); err != nil {
		return err
	}
	driver.Lock()
	driver.name = name
	driver.Unlock()
	return nil
}

// addDriverFlag gives a verb that uses the engine --driver.
func addDriverFlag(fs *flag.FlagSet) {
	fs.Var(driverFlag{}, "driver", "the engine driver: "+strings.Join(engine.Drivers(), ", ")+" (default "+engine.Default+"; Docker's engine is the one DOCKER_HOST names)")
}

// dial connects the engine of the driver --driver names; Close hangs it up.
func dial(ctx context.Context) (engine.Driver, error) {
	return engine.Open(ctx, driverName())
}
