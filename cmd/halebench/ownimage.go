package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/hale-lang/halebench/orchestrator/imagebuild"
)

const ownImageHelp = `Usage: halebench own-image [flags]

Builds halebench's own image (the root Dockerfile, the checkout as its
context) through the engine's BuildKit, FROM the Debian base halebench makes,
with its packages pinned and its layers and config normalised to
SOURCE_DATE_EPOCH like every other image, and tags it. Prints the reference
and digest. ` + "`make image`" + ` runs this.

Flags:
`

func runOwnImage(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("own-image", flag.ContinueOnError)
	dir := fs.String("dir", ".", "the halebench checkout (root Dockerfile and build context)")
	tag := fs.String("t", "halebench:latest", "the tag to give the image")
	mirror := fs.String("mirror", imagebuild.DefaultMirror, "Debian mirror for mmdebstrap")
	noCache := fs.Bool("no-cache", false, "rebuild every step without BuildKit's cache")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	if err := parse(fs, args, ownImageHelp); err != nil {
		return err
	}
	epoch, _, err := imagebuild.SourceDateEpoch(*dir)
	if err != nil {
		return badInput("own-image", err)
	}
	eng, bk, done, err := connectBuildKit(ctx)
	if err != nil {
		return err
	}
	defer done()
	b := imagebuild.New(eng, bk, logTo(*quiet), imagebuild.Options{Mirror: *mirror, NoCache: *noCache, SourceDateEpoch: epoch, RunID: "own-image"})
	img, err := b.Own(ctx, *dir, *tag)
	if err != nil {
		return err
	}
	fmt.Printf("%s\t%s@%s\t%d steps run\t%d cached\n", *tag, img.Ref, img.Digest, img.Executed, img.Cached)
	return nil
}
