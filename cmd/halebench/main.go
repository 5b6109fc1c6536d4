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

	"github.com/hale-lang/halebench/orchestrator/ab"
	"github.com/hale-lang/halebench/orchestrator/evidence"
	"github.com/hale-lang/halebench/orchestrator/harness"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/render"
	"github.com/hale-lang/halebench/orchestrator/session"
)

const usage = `halebench — Hale's benchmark suite, run in containers on a Docker Engine

Usage:
  halebench run     [flags]   build images, run every bench, gate the subject, report
  halebench images  [flags]   build the toolchain and bench images only
  halebench xproc   [flags]   the cross-process shared-memory pair, in two containers
  halebench show    FILE      the grid (or xproc tables) of a stored report;
                              --markdown: the README snapshot tables
  halebench ab      [flags]   two versions A and B interleaved in one run: ratio B/A per bench
  halebench compare OLD NEW   two stored reports bench by bench (benchstat-style)
  halebench merge   SHARD…    one report, verdict and exit code from a run's shards (run --shard=K/N)
  halebench report  FILE…     one self-contained HTML page (charts, trends) of stored reports
  halebench prune   [flags]   remove bench/toolchain images no report names, and old build cache
  halebench verify  REPORT    rebuild a report's images without cache; are the digests equal?
  halebench bundle  REPORT -o evidence.tar   the report, its images, sources, baselines in one file
  halebench replay  evidence.tar             load a bundle, check digests, rerun, compare
  halebench own-image [flags] halebench's own image, through BuildKit, reproducibly
  halebench bisect --good=REF --bad=REF --bench=LIST --hale-git=DIR
                              the first hale commit that moves the benches
  halebench version [--json]  which halebench this is: version, commit, dirty
                              (also --version)
  halebench help    [verb]    this text, or a verb's flags

Flags may stand before, between or after a verb's other arguments. Results go
to stdout (the grid, or the JSON report with --json); progress and warnings go
to stderr: --progress=auto draws a live line there only when it is a
terminal, plain prints lines only, quiet (or --quiet) nothing.

Exit codes:
  0    fine (on a workstation also when the subject's toolchain is
       unavailable: a warning says so; in CI that is 3)
  1    the subject regressed against baselines.json (time, memory or
       instruction count), failed on a bench, or (with --strict) a bench was
       inconclusive; ab --fail-on-slower: a bench is slower in B;
       compare --fail-on-slower: a bench is significantly slower in NEW;
       verify: an image differs
  2    the run could not be made (bad input, no engine, no BuildKit, bad
       baselines, a gate parameter out of range); run --require-subject
       without the subject's toolchain
  3    the subject was not measured: its toolchain could not be had (no
       ../hale, the release unreachable, a clone or build that failed, an
       unknown --hale-ref), so nothing was gated. run: in CI only (CI=true,
       as GitHub Actions and GitLab set it), after writing the report; ab
       and bisect: always
  130  interrupted (SIGINT, SIGTERM or SIGHUP): containers removed, partial report
       written, within 20 s; a second signal exits at once and says whether
       the partial report was written

Every verb that uses the engine takes --driver=NAME, the engine driver to
dial (default docker; help VERB lists the drivers this build has).

Environment:
  DOCKER_HOST  the Docker engine to use; when unset, the engine is found as
               the docker CLI finds it (Docker Desktop, Colima, OrbStack and
               remote engines are docker contexts):
  DOCKER_CONTEXT  the docker context to use; else the currentContext of
               $DOCKER_CONFIG/config.json (default ~/.docker/config.json,
               what docker context use sets); else, or for the context
               default, unix:///var/run/docker.sock
  HALEBENCH_HALE_URL  where the pinned hale release is fetched from when no
               hale flag is given and ../hale is absent (default
               https://github.com/hale-lang/hale)
`

func main() {
	ctx, stop := signalContext()
	code := exitCode(dispatch(ctx, os.Args[1:]))
	stop()
	stderr.Close()
	os.Exit(code)
}

// verbs are the verbs by name, each given its arguments after the verb.
var verbs = map[string]func(context.Context, []string) error{
	"run": runRun, "ab": runAB, "images": runImages, "xproc": runXproc, "show": runShow,
	"compare": runCompare, "report": runReport, "merge": runMerge, "prune": runPrune,
	"verify": runVerify, "own-image": runOwnImage, "bundle": runBundle, "replay": runReplay,
	"version": runVersion, "--version": runVersion,
	"bisect": func(ctx context.Context, args []string) error { return runBisect(ctx, args, newABJudge) },
}

func dispatch(ctx context.Context, args []string) error {
	if len(args) == 0 {
		fmt.Fprint(os.Stderr, usage)
		return badInput("", errors.New("no verb given"))
	}
	if verb, ok := verbs[args[0]]; ok {
		return verb(ctx, args[1:])
	}
	switch args[0] {
	case "help", "-h", "--help":
		// help VERB is the verb's own help; help of help (help help,
		// help -h, --help --help) is this text. Only a verb is dispatched
		// to: asking again never recurses.
		if len(args) > 1 {
			if verb, ok := verbs[args[1]]; ok {
				return verb(ctx, []string{"--help"})
			}
			if !isHelp(args[1]) {
				fmt.Fprint(os.Stderr, usage)
				return badInput("", fmt.Errorf("help %s: unknown verb %q", args[1], args[1]))
			}
		}
		fmt.Print(usage)
		return nil
	default:
		fmt.Fprint(os.Stderr, usage)
		return badInput("", fmt.Errorf("unknown verb %q", args[0]))
	}
}

func isHelp(arg string) bool { return arg == "help" || arg == "-h" || arg == "--help" }

// exitCode is the one place errors become exit codes.
func exitCode(err error) int {
	var ie *inputError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, harness.ErrRegression):
		fmt.Fprintln(stderr, "halebench: the subject regressed against its baseline (see the report)")
		return 1
	case errors.Is(err, harness.ErrFailed), errors.Is(err, harness.ErrInconclusive):
		fmt.Fprintf(stderr, "halebench: %v (see the list under the grid)\n", err)
		return 1
	case errors.Is(err, ab.ErrSlower):
		fmt.Fprintln(stderr, "halebench: a bench is slower in B and --fail-on-slower was given")
		return 1
	case errors.Is(err, render.ErrSlower):
		fmt.Fprintln(stderr, "halebench: compare: a bench is significantly slower in NEW and --fail-on-slower was given")
		return 1
	case errors.Is(err, judge.ErrUnmeasured):
		// Neither a regression (1) nor a run that could not be made (2):
		// the run was made but there is no evidence to gate on, and CI
		// must tell "fix the subject's build" from both.
		fmt.Fprintln(stderr, "halebench:", err)
		return 3
	case errors.Is(err, evidence.ErrDiffer):
		fmt.Fprintln(stderr, "halebench: a rebuilt image differs from the report (see the lines above)")
		return 1
	case errors.Is(err, session.ErrInterrupted), errors.Is(err, context.Canceled):
		fmt.Fprintln(stderr, "halebench: interrupted; containers removed")
		return 130
	case errors.Is(err, errHelp), errors.Is(err, errKeyPrinted):
		return 0
	case errors.As(err, &ie):
		fmt.Fprintln(stderr, "halebench:", err)
		if ie.verb != "" {
			fmt.Fprintf(stderr, "(halebench help %s lists its flags)\n", ie.verb)
		}
		return 2
	default:
		fmt.Fprintln(stderr, "halebench:", err)
		return 2
	}
}
