// Package docker binds the Docker driver (package engine) to the
// interfaces its users declare: a session's engine (lifecycle.Engine),
// whose Create is the runner's and xproc's (runner.Engine), and whose
// BuildKit is the session's builder (lifecycle.BuildKit). Go matches a
// method's results exactly, so *engine.Engine, whose Create returns its
// own *engine.Container, does not meet them itself; Driver does, with the
// compiler checking that the driver's concrete types have every method
// asked for.
//
// It holds no behaviour of its own and never dials: cmd/halebench dials
// the engine and binds it here, tests bind enginetest's. A second driver
// returns the users' interfaces itself and needs no such package.
package docker
