// Package status is the vocabulary of outcomes every stage of a run shares:
// what the sampler said of a sample, what the runner said of a job, what the
// judge said of a bench and of the run, what became of a toolchain image —
// and, beside each, what it means: its Severity (does it fail the run, need
// attention, or stay quiet) and its rank for sorting, which the judge, the
// exit code and every renderer ask instead of deciding for themselves.
// Deciding which status applies is the judge's work (orchestrator/judge);
// the sampler's wire format keeps plain strings that map one to one onto
// these.
package status
