package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"text/tabwriter"

	"github.com/hale-lang/halebench/orchestrator/catalogue"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
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
	if err := parse(fs, args, imagesHelp); err != nil {
		return err
	}
	langs, err := toolchain.Parse(o.langs)
	if err != nil {
		return badInput("images", err)
	}
	suite, err := catalogue.Load(o.suite)
	if err != nil {
		return badInput("images", err)
	}
	log := logTo(o.quiet)
	opts, err := o.imageOptions()
	if err != nil {
		return err
	}
	eng, bk, done, err := connectBuildKit(ctx)
	if err != nil {
		return err
	}
	defer done()
	b := imagebuild.New(eng, bk, log, opts)
	if _, err := b.SamplerToolchain(ctx); err != nil {
		return err
	}
	var notes []string
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "language\tstatus\ttoolchain image\tversion\tbench image\tsteps run\tsteps cached")
	for _, l := range langs {
		tc, err := b.Toolchain(ctx, l)
		if err != nil {
			return err
		}
		if tc.Status != imagebuild.Available {
			fmt.Fprintf(tw, "%s\t%s\t-\t-\t-\t-\t-\n", l.Name, tc.Status)
			notes = append(notes, fmt.Sprintf("%s: %s (%s)", l.Name, tc.Status, tc.Reason))
			continue
		}
		var srcs []imagebuild.Source
		for _, bench := range suite.Benches {
			if p := bench.Sources[l.Name]; p != "" {
				srcs = append(srcs, imagebuild.Source{Unit: bench.Name, Path: p})
			}
		}
		bi, err := b.BenchImage(ctx, l, srcs)
		if err != nil {
			return err
		}
		fmt.Fprintf(tw, "%s\t%s\t%s@%s\t%s\t%s@%s\t%d\t%d\n", l.Name, tc.Status, tc.Ref, tc.Digest, tc.Version, bi.Ref, bi.Digest, tc.Executed+bi.Executed, tc.Cached+bi.Cached)
		notes = append(notes, tc.Notes()...)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range notes {
		fmt.Println(n)
	}
	return nil
}
