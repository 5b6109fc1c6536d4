package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"text/tabwriter"

	"github.com/hale-lang/halebench/orchestrator/catalogue"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/lifecycle"
	"github.com/hale-lang/halebench/orchestrator/termtext"
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
	if _, err := parseN(fs, args, imagesHelp, 0, ""); err != nil {
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
	log, _, err := o.out.log("images")
	if err != nil {
		return err
	}
	opts, err := o.imageOptions("images")
	if err != nil {
		return err
	}
	s, err := openSession(ctx, lifecycle.Options{Kind: "images", Images: opts, Log: log})
	if err != nil {
		return err
	}
	defer s.Close()
	built, err := lifecycle.BuildImages(ctx, s.Builder, lifecycle.Need{
		Langs: langs,
		Sources: func(l toolchain.Language) []imagebuild.Source {
			var srcs []imagebuild.Source
			for _, bench := range suite.Benches {
				if p := bench.Sources[l.Name]; p != "" {
					srcs = append(srcs, imagebuild.Source{Unit: bench.Name, Path: p})
				}
			}
			return srcs
		},
	}, log)
	if err != nil {
		return err
	}
	return printImages(os.Stdout, built)
}

// printImages is the images table on w, then each language's notes. A
// version, a reason or a note holds what a toolchain, a build or git
// printed: each goes through termtext.
func printImages(w io.Writer, built *lifecycle.Images) error {
	l := termtext.Line
	var notes []string
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "language\tstatus\ttoolchain image\tversion\tbench image\tsteps run\tsteps cached")
	for _, name := range built.Order {
		tc := built.Toolchains[name]
		bi, ok := built.Benches[name]
		switch {
		case tc.Status != imagebuild.Available:
			fmt.Fprintf(tw, "%s\t%s\t-\t-\t-\t-\t-\n", l(name), l(string(tc.Status)))
			notes = append(notes, fmt.Sprintf("%s: %s (%s)", name, tc.Status, tc.Reason))
			continue
		case !ok:
			fmt.Fprintf(tw, "%s\t%s\t%s@%s\t%s\t-\t%d\t%d\n", l(name), l(string(tc.Status)), l(tc.Ref), l(tc.Digest), l(tc.Version), tc.Executed, tc.Cached)
		default:
			fmt.Fprintf(tw, "%s\t%s\t%s@%s\t%s\t%s@%s\t%d\t%d\n", l(name), l(string(tc.Status)), l(tc.Ref), l(tc.Digest), l(tc.Version), l(bi.Ref), l(bi.Digest), tc.Executed+bi.Executed, tc.Cached+bi.Cached)
		}
		notes = append(notes, tc.Notes()...)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, n := range notes {
		if _, err := fmt.Fprintln(w, termtext.Clean(n)); err != nil {
			return err
		}
	}
	return nil
}
