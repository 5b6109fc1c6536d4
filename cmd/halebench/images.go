package main

import (
	"context"
	"flag"
	"os"

	"github.com/hale-lang/halebench/orchestrator/session"
)

const imagesHelp = `Usage: halebench images [flags]

Builds (or finds, by content) the Debian base, the toolchain image of each
language and the bench image holding its compiled benches, through the
engine's BuildKit, and prints each image's reference, digest and toolchain
version. A second run with nothing changed executes no build step.

Flags:
`

func runImages(ctx context.Context, args []string) error {
	var o common
	fs := flag.NewFlagSet("images", flag.ContinueOnError)
	o.addFlags(fs)
	if _, err := parseN(fs, args, imagesHelp, 0, ""); err != nil {
		return err
	}
	need, err := session.ImagesNeed(o.langs, o.suite)
	if err != nil {
		return badInput("images", err)
	}
	log, _, err := o.out.log("images")
	if err != nil {
		return err
	}
	opts, err := o.imageOptions("images")
	if err != nil {
		return err
	}
	eng, err := dial(ctx)
	if err != nil {
		return err
	}
	defer eng.Close()
	return session.BuildAll(ctx, eng, session.Options{Kind: "images", Images: opts, Log: log}, need, os.Stdout)
}
