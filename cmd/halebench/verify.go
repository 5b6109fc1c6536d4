package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hale-lang/halebench/orchestrator/evidence"
	"github.com/hale-lang/halebench/orchestrator/halebuild"
	"github.com/hale-lang/halebench/orchestrator/lifecycle"
)

const verifyHelp = `Usage: halebench verify [flags] REPORT.json

Rebuilds every image the report names (the base, each toolchain, each bench
image) from the inputs it recorded — SOURCE_DATE_EPOCH, pinned Debian
packages, bench sources from --suite — with no build cache (the shared cache
is not pruned), and prints a table: image, recorded digest, rebuilt digest,
equal. Where a digest differs it says what differed: package versions, a
changed Dockerfile, a changed bench source. Exit 0 only when all are equal,
1 when one differs, 2 when the rebuild could not be made.

Flags:
`

func runVerify(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	addDriverFlag(fs)
	suite := fs.String("suite", ".", "the suite folder whose bench sources the bench images were built from")
	haleSrc := fs.String("hale-src", "", "hale source tree, when the report's hale toolchain was built from one")
	langs := fs.String("lang", "", "comma-separated languages whose images to rebuild (default all the report has); the base and go's toolchain (it builds the sampler) always are")
	var out outputFlags
	out.addFlags(fs)
	pos, err := parseN(fs, args, verifyHelp, 1, "one report, REPORT.json")
	if err != nil {
		return err
	}
	rep, err := evidence.ReadReport(pos[0])
	if err != nil {
		return badInput("verify", err)
	}
	if err := (&haleFlags{}).check("verify", *haleSrc); err != nil {
		return err
	}
	log, _, err := out.log("verify")
	if err != nil {
		return err
	}
	s, err := openSession(ctx, lifecycle.Options{Kind: "verify", Log: log})
	if err != nil {
		return err
	}
	defer s.Close()
	start := time.Now()
	rows, err := evidence.Verify(ctx, s.Eng, s.BuildKit(), rep, evidence.VerifyOptions{
		Suite: *suite, Subject: halebuild.Build{Src: *haleSrc}, Log: log, Langs: splitList(*langs), RunID: s.RunID,
	})
	if err != nil {
		return err
	}
	return printVerify(rows, start)
}

// printVerify is verify's table on stdout and its tally on stderr; an
// image that differs is evidence.ErrDiffer.
func printVerify(rows []evidence.Row, start time.Time) error {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "image\trecorded\trebuilt\tequal")
	equal := 0
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Image, r.Recorded, r.Rebuilt, yesNo(r.Equal))
		if r.Equal {
			equal++
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range rows {
		for _, w := range r.Why {
			fmt.Printf("%s: %s\n", r.Image, w)
		}
	}
	fmt.Fprintf(stderr, "verify: %d of %d images rebuilt to the recorded digest in %s\n", equal, len(rows), time.Since(start).Round(time.Second))
	if equal != len(rows) {
		return evidence.ErrDiffer
	}
	return nil
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "NO"
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
