// Package imagebuild makes every image a run needs, through the engine's
// embedded BuildKit: the Debian base (made from Debian's packages when no
// registry can be reached), one toolchain image per language, and one bench
// image per language holding the compiled benches and the sampler.
//
// BuildKit caches by content, so unchanged sources rebuild nothing; each build
// reports how many steps it really executed. It runs nothing but builds: the
// toolchain version probes use the engine package.
//
// hale's toolchain (hale.go) is the one built from a tree the user gives:
// a --hale-src folder or a --hale-git tag (cloned with the host's git). Its
// build context is assembled in a temporary folder (the tree, a --hale-vendor
// folder, cargo [patch] entries and images/hale/build.sh) rather than given to
// BuildKit as several named contexts, because the Dockerfile frontend built
// into a 20.10 engine has no named contexts and one assembled context keeps the
// Dockerfile the readable definition; BuildKit's content checksums make the
// copy's fresh timestamps irrelevant to the cache.
//
// Every image it hands out carries its Provenance (trust.go): built here,
// found on the engine, restored from a cache folder (signed or not) or given
// by the user, and whether it may run privileged. hale's cargo target dir
// is a BuildKit cache mount chosen by trust (halecache.go).
package imagebuild
