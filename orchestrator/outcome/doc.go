// Package outcome is the vocabulary of outcomes every stage of a run
// shares: what the sampler said of a sample, what the runner said of a job,
// what became of a toolchain image, what the judge said of a bench, of a
// count and of the run, what ab says of B against A — and, beside each,
// what it means: its Severity (does it fail the run, need attention, or
// stay quiet), its rank for sorting, whether it fails the gate, whether it
// carries a number a reader may see. The judge, the exit code and every
// renderer ask these instead of deciding for themselves.
//
// It decides nothing: which status applies is the judge's work
// (orchestrator/judge), or the runner's and the image builder's for what
// they saw. It imports nothing of the pipeline, so the packages that
// build, run and sample name their outcomes without reaching down to the
// judge. The sampler's wire format keeps plain strings that map one to one
// onto these.
package outcome
