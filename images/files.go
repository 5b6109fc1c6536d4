package images

import (
	"embed"
	"io/fs"
	"strings"
)

// FS holds each language's toolchain folder (<dir>/Dockerfile and any
// <dir>/*.sh its build takes; the folder is the toolchain entry's Image),
// the sampler's SamplerFiles and the count lane's clock gate
// (ClockGateFile).
//
//go:embed */Dockerfile */*.sh sampler/*.go sampler/wire/*.go count/clockgate.c
var FS embed.FS

// SamplerModule is the module the sampler is built as inside a bench image:
// the path it has in this repository, so that its import of the wire
// package resolves there as it does here.
const SamplerModule = "github.com/hale-lang/halebench/images/sampler"

// ClockGateFile is the source of the LD_PRELOAD library that delimits a
// counted run's region (see count/clockgate.c), built in the bench images
// of the languages counted by region.
const ClockGateFile = "count/clockgate.c"

// SamplerFiles are the sampler's sources (tests excluded), built together in
// the bench image: the command and its wire package.
var SamplerFiles = samplerFiles()

func samplerFiles() []string {
	var out []string
	for _, pattern := range []string{"sampler/*.go", "sampler/wire/*.go"} {
		names, _ := fs.Glob(FS, pattern)
		for _, n := range names {
			if !strings.HasSuffix(n, "_test.go") {
				out = append(out, n)
			}
		}
	}
	return out
}
