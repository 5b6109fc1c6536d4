package main

import (
	"context"
	"flag"
	"fmt"

	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/session"
)

const ownImageHelp = `Usage: halebench own-image [flags]

Builds halebench's own image (the root Dockerfile, the checkout as its
context) through the engine's BuildKit, FROM the Debian base halebench makes,
with its packages pinned and its layers and config normalised to
SOURCE_DATE_EPOCH like every other image, and tags it. Prints the reference
and digest. ` + "`make image`" + ` runs this. With --cache-dir (a CI job's
cache folder, after its restore) the base is restored instead of built.

Flags:
`

func runOwnImage(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("own-image", flag.ContinueOnError)
	addDriverFlag(fs)
	dir := fs.String("dir", ".", "the halebench checkout (root Dockerfile and build context)")
	tag := fs.String("t", "halebench:latest", "the tag to give the image")
	mirror := fs.String("mirror", image.DefaultMirror, "Debian mirror the base is bootstrapped from")
	noCache := fs.Bool("no-cache", false, "rebuild every step without BuildKit's cache")
	cacheDir := fs.String("cache-dir", "", "cache folder for CI, as run's: the base (and this image) restored from `DIR` (checked) instead of built, and kept there after a build")
	var out outputFlags
	out.addFlags(fs)
	if _, err := parseN(fs, args, ownImageHelp, 0, ""); err != nil {
		return err
	}
	opts, _, err := image.Given{Mirror: *mirror, NoCache: *noCache, CacheDir: *cacheDir}.Options(nil, *dir)
	if err != nil {
		return badInput("own-image", err)
	}
	if err := image.CheckOwn(*dir, *tag); err != nil {
		return badInput("own-image", err)
	}
	log, _, err := out.log("own-image")
	if err != nil {
		return err
	}
	eng, err := dial(ctx)
	if err != nil {
		return err
	}
	defer eng.Close()
	img, err := session.OwnImage(ctx, eng, session.Options{Kind: "own-image", Log: log,
		Images: opts}, *dir, *tag)
	if err != nil {
		return err
	}
	fmt.Printf("%s\t%s@%s\t%d steps run\t%d cached\n", *tag, img.Ref, img.Digest, img.Executed, img.Cached)
	return nil
}
