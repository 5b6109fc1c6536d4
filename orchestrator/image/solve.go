package image

import (
	"context"
	"io"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/engine"
)

// Solver is what runs the builder's Dockerfile builds: the engine's
// BuildKit (package engine/docker), or another driver's engine.Builder.
type Solver interface {
	Build(ctx context.Context, b engine.Build) (engine.Built, error)
}

// Every driver's builder is a Solver.
var _ Solver = engine.Builder(nil)

// solver runs the builder's builds, each reported on log.
type solver struct {
	s   Solver
	log io.Writer
	// platform is every build's platform ("": the engine's own).
	platform string
}

// export is where a build's result goes: into the engine's image store
// (image) or into a folder on this host (dir).
type export struct{ image, dir string }

// exportImage exports the result into the engine's image store as ref.
func exportImage(ref string) export { return export{image: ref} }

// exportLocal writes the result's files into dir on this host.
func exportLocal(dir string) export { return export{dir: dir} }

// solve runs one Dockerfile build. noCache asks for every step to run
// again, for this build only: the shared build cache is left as it is.
func (s *solver) solve(ctx context.Context, contextDir, dockerfileDir string, buildArgs map[string]string, noCache bool, to export, what string) (engine.Built, error) {
	return s.s.Build(ctx, engine.Build{
		Context: contextDir, Dockerfile: dockerfileDir, Args: buildArgs, NoCache: noCache,
		Image: to.image, Dir: to.dir, What: what, Log: s.log, Platform: s.platform,
	})
}

func indent(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}
