package main

import (
	"context"
	"flag"
	"os"

	"github.com/hale-lang/halebench/orchestrator/evidence"
	"github.com/hale-lang/halebench/orchestrator/subject"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

const verifyHelp = `Usage: halebench verify [flags] REPORT.json

Rebuilds every image the report names (the base, each toolchain, each bench
image) from the inputs it recorded — SOURCE_DATE_EPOCH, pinned Debian
packages, bench sources from --suite — with no build cache (the shared cache
is not pruned), and prints a table: image, recorded digest, rebuilt digest,
equal. Where a digest differs it says what differed: package versions, a
changed Dockerfile, a changed bench source. Exit 0 only when all are equal,
1 when one differs, 2 when the rebuild could not be made.

REPORT.json may be a run report, an xproc report (its images hold the
suite's xproc/ programs) or an ab result: both sides' images, the base and
each toolchain once, side B's bench images from --b-suite's sources. An ab
of two builds of the subject (two toolchain images of one language), or an
image given rather than built (it records no inputs), is refused, naming it.

Flags:
`

func runVerify(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	addDriverFlag(fs)
	suiteDir := fs.String("suite", ".", "the suite folder whose bench sources the bench images were built from")
	bSuite := fs.String("b-suite", "", "an ab result's side B's suite folder (default --suite)")
	haleSrc := fs.String("hale-src", "", "hale source tree, when the report's hale toolchain was built from one")
	langs := fs.String("lang", "", "comma-separated languages whose images to rebuild (default all the report has); the base and go's toolchain (it builds the sampler) always are")
	var out outputFlags
	out.addFlags(fs)
	pos, err := parseN(fs, args, verifyHelp, 1, "one report, REPORT.json")
	if err != nil {
		return err
	}
	st, err := evidence.ReadStoredForVerify(pos[0], *haleSrc)
	if err != nil {
		return badInput("verify", err)
	}
	st.Note(stderr)
	log, _, err := out.log("verify")
	if err != nil {
		return err
	}
	eng, err := dial(ctx)
	if err != nil {
		return err
	}
	defer eng.Close()
	return evidence.VerifyOn(ctx, eng, st, evidence.VerifyOptions{
		Suite: *suiteDir, BSuite: *bSuite, Subject: subject.Build{Src: *haleSrc}, Log: log, Langs: suite.SplitList(*langs),
	}, os.Stdout, stderr)
}
