package imagebuild

import "context"

// What the external tests (which need enginetest, itself an importer of
// this package) use of the package's insides.
const (
	HaleCacheRelease = haleCacheRelease
	HaleCacheRef     = haleCacheRef
)

// HaleDockerfile is haleDockerfile.
var HaleDockerfile = haleDockerfile

// SolveLocal builds the Dockerfile in dir (the build context too) with
// args and writes the result's files to out.
func SolveLocal(ctx context.Context, b *Builder, dir string, args map[string]string, out string) error {
	_, err := b.sv.solve(ctx, dir, dir, args, false, exportLocal(out), "test")
	return err
}
