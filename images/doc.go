// Package images holds the toolchain image definitions (one folder per
// language, each a Dockerfile built FROM the Debian base that halebench makes
// or is given) and the source of the in-container sampler, embedded so that
// the halebench binary carries everything it builds.
//
// It is data, not logic: orchestrator/image decides what to build.
package images
