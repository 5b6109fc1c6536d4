// Package imagebuild makes every image a run needs, through the engine's
// embedded BuildKit: the Debian base (made from Debian's packages when no
// registry can be reached), one toolchain image per language, and one bench
// image per language holding the compiled benches and the sampler.
//
// BuildKit caches by content, so unchanged sources rebuild nothing; each build
// reports how many steps it really executed. It runs nothing but builds: the
// toolchain version probes use the engine package.
package imagebuild
