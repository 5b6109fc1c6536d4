package imagebuild

import (
	"context"
	"os"
)

// SolveOnBase builds dockerfile (which takes ARG BASE) FROM the base image
// with an empty context, as what, for tests of the solver's output.
func (b *Builder) SolveOnBase(ctx context.Context, dockerfile, ref, what string) error {
	base, err := b.Base(ctx)
	if err != nil {
		return err
	}
	dir, err := b.materialize(map[string][]byte{"Dockerfile": []byte(dockerfile)})
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	_, err = b.sv.solve(ctx, dir, dir, map[string]string{"BASE": base.Ref}, false, exportImage(ref), what)
	return err
}
