// Package engine is what halebench knows of an engine, whatever runs it:
// the plain data every driver speaks (Spec, HostInfo, Privilege, Image,
// Build, …, the labels and owner identities on halebench's containers),
// what an engine can do (Features, asked through Driver.Features; a caller
// that needs one asks Features.Need and is refused naming it), the
// interfaces a driver meets (Driver, its Container, its Builder), and the
// registry drivers join by name (Register, Open, Drivers).
//
// It imports no Docker, moby or BuildKit package: the Docker driver is
// package engine/docker. The packages that use an engine name only this
// package, and declare the few methods they call as interfaces of their
// own. docs/driver.md says what a driver has to mean by each method, and
// enginetest.Conformance checks it of every driver.
package engine
