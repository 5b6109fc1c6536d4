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
	"github.com/hale-lang/halebench/orchestrator/session"
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

// dialled is a session on an engine it dialled: Close ends the session,
// then hangs the engine up.
type dialled struct {
	*session.Session
	eng engine.Driver
}

// openSession dials the engine and opens a session of o on it.
func openSession(ctx context.Context, o session.Options) (*dialled, error) {
	eng, err := dial(ctx)
	if err != nil {
		return nil, err
	}
	o.Engine = eng
	s, err := session.Open(ctx, o)
	if err != nil {
		eng.Close()
		return nil, err
	}
	return &dialled{Session: s, eng: eng}, nil
}

func (s *dialled) Close() {
	s.Session.Close()
	s.eng.Close()
}
