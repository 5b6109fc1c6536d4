// The verbs that are one session and one step in it: images, own-image
// and prune. Each is given the engine cmd/halebench dialled (and hangs up).

package session

import (
	"context"
	"errors"
	"io"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// ImagesNeed is what the images verb builds: the toolchains of the
// comma-separated languages (all: "") and the bench images of the suite in
// dir. Its errors are the user's to fix.
func ImagesNeed(langs, dir string) (Need, error) {
	ls, err := suite.Parse(langs)
	if err != nil {
		return Need{}, err
	}
	s, err := suite.Load(dir)
	if err != nil {
		return Need{}, err
	}
	return Need{Langs: ls, Sources: image.BenchSources(s.Benches)}, nil
}

// BuildAll is the images verb on eng: a session of o, need's images made
// or found in it (BuildImages, saying progress on o.Log), and their table
// written to out.
func BuildAll(ctx context.Context, eng engine.Driver, o Options, need Need, out io.Writer) error {
	o.Engine = eng
	s, err := Open(ctx, o)
	if err != nil {
		return err
	}
	defer s.Close()
	built, err := BuildImages(ctx, s.Builder, need, o.Log)
	if err != nil {
		return err
	}
	return built.WriteTable(out)
}

// OwnImage is the own-image verb on eng: in a session of o, halebench's
// own image built from the checkout in dir (its root Dockerfile) and
// tagged tag.
func OwnImage(ctx context.Context, eng engine.Driver, o Options, dir, tag string) (image.Toolchain, error) {
	o.Engine = eng
	s, err := Open(ctx, o)
	if err != nil {
		return image.Toolchain{}, err
	}
	defer s.Close()
	return s.Builder.Own(ctx, dir, tag)
}

// Check refuses, before the engine is asked, the prune options no prune
// can carry out.
func (o PruneOptions) Check() error {
	if o.Keep < 1 {
		return errors.New("prune: --keep must be at least 1 (the latest build always stays)")
	}
	return nil
}

// Prune is the prune verb on eng: in a session that builds nothing (saying
// its steps on log), the plan of o made and, unless DryRun, carried out
// (Run), then printed on out.
func Prune(ctx context.Context, eng engine.Driver, o PruneOptions, log, out io.Writer) error {
	if o.NoCache {
		o.CacheKeep = -1
	}
	s, err := Open(ctx, Options{Kind: "prune", Engine: eng, Images: image.Options{NoBuild: true}, Log: log})
	if err != nil {
		return err
	}
	defer s.Close()
	if o.CacheKeep >= 0 {
		if err := s.Features.Need("pruning the build cache", engine.FeatBuildCache); err != nil {
			return err
		}
	}
	p, err := Run(ctx, s.Eng, o)
	if err != nil {
		return err
	}
	Print(out, p, o.DryRun)
	return nil
}
