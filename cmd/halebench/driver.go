// The engine the verbs run on: cmd wires the drivers in (importing a
// driver's package registers it) and dials the one --driver names; nothing
// below it dials.

package main

import (
	"context"
	"flag"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/engine"
	_ "github.com/hale-lang/halebench/orchestrator/engine/docker" // registers "docker"
)

// driver is the engine driver this process dials (--driver): the verb's,
// then the hard exit's, which removes what the verb made on it.
var driver engine.Choice

// addDriverFlag gives a verb that uses the engine --driver: a name no
// driver registered is refused as the flags are parsed, naming the drivers
// there are.
func addDriverFlag(fs *flag.FlagSet) {
	fs.Var(&driver, "driver", "the engine `DRIVER`: "+strings.Join(engine.Drivers(), ", ")+" (default "+engine.Default+"; Docker's engine is the one DOCKER_HOST, else DOCKER_CONTEXT, else the docker CLI's current context names)")
}

// dial connects the engine of the driver --driver names; Close hangs it up.
func dial(ctx context.Context) (engine.Driver, error) {
	return driver.Open(ctx)
}
