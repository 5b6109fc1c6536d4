package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/hale-lang/halebench/orchestrator/evidence"
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
	suite := fs.String("suite", ".", "the suite folder whose bench sources the bench images were built from")
	haleSrc := fs.String("hale-src", "", "hale source tree, when the report's hale toolchain was built from one")
	langs := fs.String("lang", "", "comma-separated languages whose images to rebuild (default all the report has); the base and go's toolchain (it builds the sampler) always are")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	path, err := parseWithArg(fs, args, verifyHelp, "REPORT.json")
	if err != nil {
		return err
	}
	rep, err := evidence.ReadReport(path)
	if err != nil {
		return badInput("verify", err)
	}
	eng, bk, done, err := connectBuildKit(ctx)
	if err != nil {
		return err
	}
	defer done()
	start := time.Now()
	rows, err := evidence.Verify(ctx, eng, bk, rep, evidence.VerifyOptions{
		Suite: *suite, HaleSrc: *haleSrc, Log: logTo(*quiet), Langs: splitList(*langs),
		RunID: fmt.Sprintf("verify-%s-%d", start.UTC().Format("20060102T150405"), os.Getpid()),
	})
	if err != nil {
		return err
	}
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
	fmt.Fprintf(os.Stderr, "verify: %d of %d images rebuilt to the recorded digest in %s\n", equal, len(rows), time.Since(start).Round(time.Second))
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

// parseWithArg parses flags and exactly one other argument, in any order,
// and returns that argument.
func parseWithArg(fs *flag.FlagSet, args []string, help, argName string) (string, error) {
	fs.Usage = func() {
		fmt.Fprint(fs.Output(), help)
		fs.PrintDefaults()
	}
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return "", errHelp
			}
			return "", badInput("verify", err)
		}
		if fs.NArg() == 0 {
			break
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
	if len(pos) != 1 {
		return "", badInput("verify", fmt.Errorf("give one %s (got %d)", argName, len(pos)))
	}
	return pos[0], nil
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
