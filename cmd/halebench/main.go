// Command halebench is Hale's benchmark suite orchestrator: it builds
// per-language toolchain images through the Docker Engine's BuildKit, runs
// every bench in a CPU-pinned container, gates the subject language against
// baselines.json and reports. main only wires signals, picks the verb and
// maps its error to an exit code.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/hale-lang/halebench/orchestrator/evidence"
	"github.com/hale-lang/halebench/orchestrator/harness"
)

const usage = `halebench — Hale's benchmark suite, run in containers on a Docker Engine

Usage:
  halebench run     [flags]   build images, run every bench, gate the subject, report
  halebench images  [flags]   build the toolchain and bench images only
  halebench xproc   [flags]   the cross-process shared-memory pair, in two containers
  halebench show    FILE      the grid (or xproc tables) of a stored report
  halebench verify  REPORT    rebuild a report's images without cache; are the digests equal?
  halebench bundle  REPORT -o evidence.tar   the report, its images, sources, baselines in one file
  halebench replay  evidence.tar             load a bundle, check digests, rerun, compare
  halebench own-image [flags] halebench's own image, through BuildKit, reproducibly
  halebench help    [verb]    this text, or a verb's flags

Results go to stdout (the grid, or the JSON report with --json); progress and
warnings go to stderr.

Exit codes:
  0    fine (also when the subject's toolchain is unavailable: a warning says so)
  1    the subject regressed against baselines.json (verify: an image differs)
  2    the run could not be made (bad input, no engine, no BuildKit, bad baselines)
  130  interrupted (SIGINT/SIGTERM): containers removed, partial report written

Environment:
  DOCKER_HOST  the engine to use (default unix:///var/run/docker.sock)
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	os.Exit(exitCode(dispatch(ctx, os.Args[1:])))
}

func dispatch(ctx context.Context, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(os.Stderr, usage)
		return usageErr("no verb given")
	}
	switch args[0] {
	case "run":
		return runRun(ctx, args[1:])
	case "images":
		return runImages(ctx, args[1:])
	case "xproc":
		return runXproc(ctx, args[1:])
	case "show":
		return runShow(ctx, args[1:])
	case "verify":
		return runVerify(ctx, args[1:])
	case "own-image":
		return runOwnImage(ctx, args[1:])
	case "bundle":
		return runBundle(ctx, args[1:])
	case "replay":
		return runReplay(ctx, args[1:])
	case "help", "-h", "--help":
		if len(args) > 1 {
			return dispatch(ctx, []string{args[1], "--help"})
		}
		fmt.Print(usage)
		return nil
	default:
		fmt.Fprint(os.Stderr, usage)
		return usageErr(fmt.Sprintf("unknown verb %q", args[0]))
	}
}

func usageErr(msg string) error { return &harness.UsageError{Msg: msg} }

// exitCode is the one place errors become exit codes.
func exitCode(err error) int {
	var ue *harness.UsageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, harness.ErrRegression):
		fmt.Fprintln(os.Stderr, "halebench: the subject regressed against its baseline (see the report)")
		return 1
	case errors.Is(err, evidence.ErrDiffer):
		fmt.Fprintln(os.Stderr, "halebench: a rebuilt image differs from the report (see the lines above)")
		return 1
	case errors.Is(err, harness.ErrInterrupted), errors.Is(err, context.Canceled):
		fmt.Fprintln(os.Stderr, "halebench: interrupted; containers removed")
		return 130
	case errors.Is(err, errHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintln(os.Stderr, "halebench:", err)
		return 2
	default:
		fmt.Fprintln(os.Stderr, "halebench:", err)
		return 2
	}
}
