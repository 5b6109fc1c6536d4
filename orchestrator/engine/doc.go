// Package engine is halebench's one door to a Docker Engine: it dials the
// engine (and its embedded BuildKit), describes the host, imports images, and
// runs labelled containers with the privilege the host allows.
//
// It is not a general Docker client: it knows only the few container shapes
// halebench runs, and every container it makes carries halebench's labels so
// that a later run can find and remove what a killed one left.
//
// It is halebench's one driver: only this folder imports Docker, moby or
// BuildKit (TestOnlyTheDriverImportsDocker); the packages that use it
// declare the methods they call as small interfaces of their own and name
// only its plain data (Spec, Image, Privilege, HostInfo, …); package
// engine/docker binds *Engine to the interfaces whose methods return the
// users' own (a container, a builder). docs/driver.md says what a second
// driver would implement.
package engine
