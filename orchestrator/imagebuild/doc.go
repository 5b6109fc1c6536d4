// Package imagebuild makes every image a run needs, through the engine's
// embedded BuildKit: the Debian base (made from Debian's packages when no
// registry can be reached), one toolchain image per language, and one bench
// image per language holding the compiled benches and the sampler.
//
// BuildKit caches by content, so unchanged sources rebuild nothing; each build
// reports how many steps it really executed. It runs nothing but builds: the
// toolchain version probes use the engine package.
//
// The one toolchain built from a tree the user gives (hale's: a --hale-src
// folder or a --hale-git ref) is a SubjectBuild (subject.go) given in
// Options.Subject: package halebuild assembles its context and asks the
// builder to build it FROM the base (BuildOnBase), to take a given image
// (Given) and to ask it for its version (Finish).
//
// Every image it hands out carries its Provenance (trust.go): built here,
// found on the engine, restored from a cache folder (signed or not) or given
// by the user, and whether it may run privileged.
package imagebuild
