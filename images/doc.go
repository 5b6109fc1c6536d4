// Package images holds the toolchain image definitions (one folder per
// language, each a Dockerfile built FROM the Debian base that halebench makes
// or is given) and the source of the in-container sampler, embedded so that
// the halebench binary carries everything it builds.
//
// It is data, not logic: orchestrator/imagebuild decides what to build.
package images

import "embed"

// FS holds <lang>/Dockerfile for each language and the sampler's SamplerFiles.
//
//go:embed go node python c rust hale sampler/main.go sampler/confine.go
var FS embed.FS

// SamplerFiles are the sampler's sources, built together in the bench image.
var SamplerFiles = []string{"sampler/main.go", "sampler/confine.go"}
