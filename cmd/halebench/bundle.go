package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/hale-lang/halebench/orchestrator/evidence"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

const bundleHelp = `Usage: halebench bundle [flags] REPORT.json -o evidence.tar

Packs one file that another Docker host can replay: the report, every image
it names (base, toolchains, bench images) as a docker archive, the bench
sources and baselines of --suite, and manifest.json with the digest of each
image and file. Every image must be in the engine with its recorded digest.
REPORT.json may be a run report, an ab result (both sides' images; side B's
suite from --b-suite, as suite-b/, where it is another folder) or an xproc
report (with the suite's xproc/ programs); replay reruns run reports only.

Flags:
`

func runBundle(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("bundle", flag.ContinueOnError)
	addDriverFlag(fs)
	out := fs.String("o", "evidence.tar", "the bundle to write")
	suite := fs.String("suite", ".", "the suite folder holding benches/ (or the seed's micro/ and app/) and baselines.json")
	bSuite := fs.String("b-suite", "", "an ab result's side B's suite folder (default --suite)")
	pos, err := parseN(fs, args, bundleHelp, 1, "one report, REPORT.json")
	if err != nil {
		return err
	}
	st, err := evidence.ReadStored(pos[0])
	if err != nil {
		return badInput("bundle", err)
	}
	eng, err := dial(ctx)
	if err != nil {
		return err
	}
	defer eng.Close()
	m, err := evidence.BundleOn(ctx, eng, st, evidence.Suites{Dir: *suite, B: *bSuite}, *out, stderr)
	if err != nil {
		return err
	}
	fi, _ := os.Stat(*out)
	fmt.Printf("%s\t%s\t%d images\t%d files\n", *out, termtext.Size(fi.Size()), len(m.Images), len(m.Files))
	return nil
}

const replayHelp = `Usage: halebench replay [flags] evidence.tar

Loads a bundle made by ` + "`halebench bundle`" + ` of a run report into this engine, checks every
file and image digest against its manifest, runs the same benches on those
images with nothing built (as --no-build), writes its own report and prints
its medians next to the recorded ones, with both hosts named.

Flags:
`

func runReplay(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	addDriverFlag(fs)
	results := fs.String("results", "results", "where the replay's report goes")
	var out outputFlags
	out.addFlags(fs)
	pos, err := parseN(fs, args, replayHelp, 1, "one bundle, evidence.tar")
	if err != nil {
		return err
	}
	log, _, err := out.log("replay")
	if err != nil {
		return err
	}
	o := evidence.ReplayOptions{ResultsDir: *results, Log: log, Notes: stderr, Partial: &reports}
	// The bundle is unpacked and checked before the engine is dialled.
	u, err := evidence.Unpack(pos[0], o)
	if err != nil {
		return badInput("replay", fmt.Errorf("replay: %w", err))
	}
	defer u.Close()
	eng, err := dial(ctx)
	if err != nil {
		return err
	}
	defer eng.Close()
	// The bundle's baselines gate the replay as they gated the run.
	return evidence.ReplayOn(ctx, eng, u, o, os.Stdout)
}
