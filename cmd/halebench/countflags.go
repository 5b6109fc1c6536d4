package main

import (
	"flag"

	"github.com/hale-lang/halebench/orchestrator/harness"
)

const countHelp = `
Counts: besides timing, the subject (and the languages --count-langs names) is
run --count-runs times under Valgrind (Callgrind, a fixed cache model, a build
for a fixed CPU target) and its instructions counted over the bench's timed
region where it can be delimited, the whole process otherwise. Counts that
differ by more than 0.01 % are count_unstable (shown with their spread, not
gated). Otherwise the count is held to baselines.json's: over its count_band
(max(0.5 %, 4 × the recorded spread)) is a regression — exit 1, as a time
regression is, the verdict naming instructions — past it improved. Counts gate
on any x86-64 host; baselines counted with another Valgrind, instrument, target
or scope are incomparable (--count-cache-sim=false counts without the cache
model: not the same instructions as with it, so not held to baselines
counted with it). count_failed (Valgrind failed, a timeout) and not_counted
(with the reason) leave the bench to the time gate.
The count lane runs after the timed samples, its cells in parallel, one per
CPU (--count-jobs): a count does not depend on what runs beside it. A cell
whose timed samples failed is not counted; a counted run is bounded by the
program's native time times Valgrind's slowdown, with a margin. A cell whose
baseline repeated to the instruction is counted once, and a second time only
when that run differs from the baseline. Guards (benches/guards, there for
their memory peak) are not counted unless --count-guards.
--count=only takes no timed sample: the fast, exact lane for CI.
--update-baselines --count=only writes the count fields alone.

`

// addCountFlags gives run the count lane's flags, into o; cacheSim is
// --count-cache-sim (o.CountNoCacheSim is its negation).
func addCountFlags(fs *flag.FlagSet, o *harness.Options, cacheSim *bool) {
	fs.StringVar(&o.Count, "count", harness.CountAuto, "count instructions under Valgrind: auto (the subject, beside timing it), off, or only (counts, no timing)")
	fs.StringVar(&o.CountLangs, "count-langs", "", "comma-separated comparatives to count too (reported, never gated)")
	fs.IntVar(&o.CountRuns, "count-runs", 2, "counted runs per cell (at least 2: the determinism rule compares them)")
	fs.BoolVar(cacheSim, "count-cache-sim", true, "simulate a fixed cache model in counted runs (misses, est_cycles); =false counts without it, incomparable with baselines counted with it")
	fs.DurationVar(&o.CountBudget, "count-budget", 0, "stop counting once counting has taken this long (e.g. 10m); the benches left are not_counted, said in the report (0: no cap)")
	fs.IntVar(&o.CountJobs, "count-jobs", 0, "cells counted at once, one CPU each (0: one per CPU of the host)")
	fs.BoolVar(&o.CountGuards, "count-guards", false, "count the guards too (benches/guards: measured for their memory peak, not counted by default)")
}
