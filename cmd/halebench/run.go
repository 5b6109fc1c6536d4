package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/harness"
	"github.com/hale-lang/halebench/orchestrator/report"
)

type runOptions struct {
	common
	iters           int
	warmup          int
	bench           string
	noComparative   bool
	updateBaselines bool
	jsonOut         bool
	baselines       string
	results         string
	requireSubject  bool
	unprivileged    bool
	timeout         time.Duration
	memory          byteSize
}

const runHelp = `Usage: halebench run [flags]

Builds the toolchain and bench images (cached by content), runs every bench of
the suite in every language, each (bench, language) in one CPU-pinned container
taking a warm-up and --iters samples, then gates the subject's medians against
baselines.json and writes results/run-<UTC stamp>.json. The grid goes to stdout.

Exit codes: 0 fine, 1 subject regression, 2 the run could not be made,
130 interrupted.

Flags:
`

func runRun(ctx context.Context, args []string) error {
	var o runOptions
	o.memory = 4 << 30
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	o.addFlags(fs)
	fs.IntVar(&o.iters, "iters", 5, "measured samples per bench and language")
	fs.IntVar(&o.warmup, "warmup", 1, "discarded warm-up runs before the samples")
	fs.StringVar(&o.bench, "bench", "", "run one bench only")
	fs.BoolVar(&o.noComparative, "no-comparative", false, "the subject only, no sibling languages")
	fs.BoolVar(&o.updateBaselines, "update-baselines", false, "rewrite the subject's medians into baselines.json (keeps tolerances and notes)")
	fs.BoolVar(&o.jsonOut, "json", false, "print only the JSON report on stdout")
	fs.StringVar(&o.baselines, "baselines", "", "baselines file (default <suite>/baselines.json)")
	fs.StringVar(&o.results, "results", "results", "folder for the JSON reports")
	fs.BoolVar(&o.requireSubject, "require-subject", false, "exit 2 when the subject's toolchain is unavailable, instead of warning")
	fs.BoolVar(&o.unprivileged, "unprivileged", false, "run containers without privilege: no per-sample memory peak (said in the report)")
	fs.DurationVar(&o.timeout, "timeout", 120*time.Second, "per-sample timeout")
	fs.Var(&o.memory, "memory", "per-sample memory limit (e.g. 512m, 4g); over it a sample is `oom`")
	if err := parse(fs, args, runHelp); err != nil {
		return err
	}
	if o.baselines == "" {
		o.baselines = filepath.Join(o.suite, "baselines.json")
	}
	log := logTo(o.quiet)
	imgOpts, err := o.imageOptions()
	if err != nil {
		return err
	}
	eng, err := engine.Connect(ctx)
	if err != nil {
		return err
	}
	defer eng.Close()
	res, err := harness.Run(ctx, eng, harness.Options{
		Suite: o.suite, Bench: o.bench, Langs: o.langs, Subject: o.subject, NoComparative: o.noComparative,
		Iters: o.iters, Warmup: o.warmup, Timeout: o.timeout, MemLimit: int64(o.memory), OutCap: 1 << 20,
		Baselines: o.baselines, ResultsDir: o.results, UpdateBaselines: o.updateBaselines,
		RequireSubject: o.requireSubject, Unprivileged: o.unprivileged, Images: imgOpts, Log: log,
		Live: !o.quiet && isTerminal(os.Stderr),
	})
	if res != nil && res.Report != nil {
		if o.jsonOut {
			enc := json.NewEncoder(os.Stdout)
			enc.SetIndent("", "  ")
			enc.Encode(res.Report)
		} else {
			report.Grid(os.Stdout, res.Report)
		}
		if res.ReportPath != "" {
			fmt.Fprintf(log, "report: %s\n", res.ReportPath)
		}
	}
	return err
}
