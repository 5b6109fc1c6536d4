// Package docker is halebench's Docker driver: the one package that talks
// to a Docker Engine and to the BuildKit embedded in it (dialled over the
// engine's /grpc and /session endpoints, as buildx's docker driver does).
// *Engine is an engine.Driver; it registers itself as "docker", the
// default, so a program that imports this package for its side effect
// reaches Docker through engine.Open. Which engine it dials is resolved
// as the docker CLI resolves it (ResolveEndpoint: DOCKER_HOST, a docker
// context named by DOCKER_CONTEXT or the CLI config's currentContext, the
// default socket), by a reader of the CLI's files of its own.
//
// It is not a general Docker client: it knows only the few container
// shapes halebench runs, and every container it makes carries halebench's
// labels so that a later run can find and remove what a killed one left.
// It is the only package under orchestrator/ that links Docker, moby or
// BuildKit (engine's TestOnlyTheDockerDriverLinksDocker).
package docker
