package harness

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// Options are a run's settings (the CLI's flags).
type Options struct {
	Suite           string
	Bench           string
	Langs           string
	Subject         string
	NoComparative   bool
	Iters           int
	Warmup          int
	Timeout         time.Duration
	MemLimit        int64
	OutCap          int
	Baselines       string // default <Suite>/baselines.json
	ResultsDir      string
	UpdateBaselines bool
	Runs            int     // independent runs an --update-baselines records (default 5)
	Confirm         int     // samples re-measured on a suspect cell before its verdict (0: none)
	Alpha           float64 // significance level of a regression, in (0, 0.5): judge.DefaultAlpha unless told
	Strict          bool    // an inconclusive bench fails the gate
	GateAnyMachine  bool    // gate on a baseline measured on another machine
	RequireSubject  bool    // refuse to run without the subject's toolchain (exit 2, nothing measured)
	// FailUnmeasured (set in CI) measures the rest without the subject's
	// toolchain and writes the report, then ends in judge.ErrUnmeasured: a
	// run that gated nothing is not a pass.
	FailUnmeasured bool
	Unprivileged   bool
	// The count lane: --count (auto, off, only), --count-langs
	// (comparatives to count too), --count-runs (counted runs per cell, at
	// least 2), --count-budget (0: none), --count-jobs (cells counted at
	// once, one CPU each; 0: every CPU), --count-guards (count the guards
	// too) and --count-cache-sim=false (Callgrind without its cache
	// simulation: no est_cycles, and counts incomparable with baselines
	// counted with it).
	Count           string
	CountLangs      string
	CountRuns       int
	CountBudget     time.Duration
	CountJobs       int
	CountGuards     bool
	CountNoCacheSim bool
	Images          image.Options
	Log             io.Writer // progress and warnings
	Live            bool      // Log is a terminal: show what is sampling now on a line redrawn in place

	// Shard is this run's part of a sharded run (N 0: unsharded);
	// ShardCosts an earlier report whose recorded times balance it.
	Shard      plan.Spec
	ShardCosts string
}

// Plan is a run whose inputs have all been read and checked: the options
// with their defaults, and what they name read in — the suite's catalogue
// (of Options.Suite), the languages (of Options.Langs, the subject's
// included), the subject (of Options.Subject) and its baselines.
type Plan struct {
	Options
	Catalogue   *suite.Suite
	Languages   []suite.Language
	SubjectLang suite.Language
	Base        *judge.File
	Warnings    []string
	// CountedLangs are the comparatives --count-langs names.
	CountedLangs []string
	// Partition is a sharded run's partition and part (nil: unsharded).
	Partition *report.Shard
}

// Prepare reads and checks every input of a run — flags, the suite's
// layout and catalogue, the baselines file — without touching an engine,
// so a bad input is reported as itself. Its errors are all the user's to fix.
func Prepare(o Options) (*Plan, error) {
	givenBaselines := o.Baselines != ""
	o, err := withDefaults(o)
	if err != nil {
		return nil, err
	}
	if err := checkBaselinesPath(o.Baselines, givenBaselines, o.UpdateBaselines); err != nil {
		return nil, err
	}
	p := &Plan{Options: o}
	if p.Catalogue, err = suite.Load(o.Suite); err != nil {
		return nil, err
	}
	if err := p.Catalogue.Select(o.Bench); err != nil {
		return nil, err
	}
	if p.Languages, err = suite.Parse(o.Langs); err != nil {
		return nil, err
	}
	var ok bool
	if p.SubjectLang, ok = suite.ByName(o.Subject); !ok {
		return nil, fmt.Errorf("--subject=%s: unknown language (known: %s)", o.Subject, suite.Names())
	}
	if o.NoComparative {
		p.Languages = []suite.Language{p.SubjectLang}
	} else if !hasLang(p.Languages, p.SubjectLang.Name) {
		p.Languages, _ = suite.Parse(joinNames(append(p.Languages, p.SubjectLang)))
	}
	if p.CountedLangs, err = checkCountLangs(o.CountLangs, p.Languages); err != nil {
		return nil, err
	}
	if p.Base, err = judge.Load(o.Baselines); err != nil {
		return nil, err
	}
	if o.UpdateBaselines && o.Runs == 1 {
		p.warn("--update-baselines --runs=1: one run cannot measure between-run drift, so the recorded band is a guess; record with --runs=5")
	}
	// Medians of one language never gate, or get overwritten by, another's.
	if bs := p.Base.SubjectOf(); bs != "" && bs != p.SubjectLang.Name {
		if o.UpdateBaselines {
			return nil, fmt.Errorf("--update-baselines: %s holds %s's medians and this run's subject is %s; give --baselines=PATH for a %s file (a missing file starts empty)", o.Baselines, bs, p.SubjectLang.Name, p.SubjectLang.Name)
		}
		p.warn(fmt.Sprintf("baselines %s hold %s's medians, not %s's: nothing gates this run", o.Baselines, bs, p.SubjectLang.Name))
		p.Base = &judge.File{Benches: map[string]*judge.Entry{}}
	}
	return p, p.selectShard()
}

// checkBaselinesPath refuses a baselines file that would gate nothing: a
// --baselines path that does not exist reads as an empty file (every bench
// no_baseline, exit 0), so a typo would pass every run. Only
// --update-baselines may name a new file, in a folder that exists (else it
// would fail after the whole run). A suite's own baselines.json may be
// absent: a suite starts without one.
func checkBaselinesPath(path string, given, update bool) error {
	_, err := os.Lstat(path)
	switch {
	case err == nil || !errors.Is(err, os.ErrNotExist):
		return nil // judge.Load reads it, or says what is wrong with it
	case update:
		dir := filepath.Dir(path)
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return fmt.Errorf("--update-baselines: %s cannot be created: its folder %s does not exist (create the folder, or give --baselines=PATH in one that does)", path, dir)
		}
		return nil
	case given:
		return fmt.Errorf("--baselines=%s: no such file; a run gated on it would gate nothing (check the path, or record one with --update-baselines)", path)
	}
	return nil
}

// withDefaults checks the options that need no file and fills in the
// defaults of those left zero.
func withDefaults(o Options) (Options, error) {
	if o.Log == nil {
		o.Log = io.Discard
	}
	if o.Baselines == "" {
		o.Baselines = filepath.Join(o.Suite, "baselines.json")
	}
	o, err := countDefaults(o)
	if err != nil {
		return o, err
	}
	if o.Iters < 1 && o.Count != CountOnly {
		return o, fmt.Errorf("--iters=%d: need at least 1 sample", o.Iters)
	}
	if o.Warmup < 0 {
		return o, fmt.Errorf("--warmup=%d: cannot be negative", o.Warmup)
	}
	if o.Timeout <= 0 {
		return o, fmt.Errorf("--timeout=%s: must be positive", o.Timeout)
	}
	if o.MemLimit < 0 {
		return o, errors.New("--memory: cannot be negative")
	}
	if o.Runs == 0 {
		o.Runs = 1
		if o.UpdateBaselines && o.Count != CountOnly { // counts do not drift
			o.Runs = 5
		}
	}
	if o.Runs < 1 || o.Runs > 50 {
		return o, fmt.Errorf("--runs=%d: want 1 to 50 independent runs", o.Runs)
	}
	if o.Runs > 1 && !o.UpdateBaselines {
		return o, fmt.Errorf("--runs=%d: only --update-baselines takes several runs", o.Runs)
	}
	// No default for 0: --alpha=0 would be a gate that never fires, so
	// every caller says its level (the CLI's flag defaults to
	// judge.DefaultAlpha).
	if err := judge.CheckAlpha("--alpha", o.Alpha); err != nil {
		return o, err
	}
	if o.Confirm < 0 {
		return o, fmt.Errorf("--confirm=%d: cannot be negative", o.Confirm)
	}
	return o, nil
}

func (p *Plan) warn(msg string) {
	p.Warnings = append(p.Warnings, msg)
	fmt.Fprintf(p.Log, "warning: %s\n", msg)
}

func hasLang(ls []suite.Language, name string) bool {
	for _, l := range ls {
		if l.Name == name {
			return true
		}
	}
	return false
}

func names(ls []suite.Language) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.Name)
	}
	return out
}

func joinNames(ls []suite.Language) string { return strings.Join(names(ls), ",") }
