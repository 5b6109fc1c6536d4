// Package status is the vocabulary of outcomes every stage of a run shares:
// what the sampler said of a sample, what the runner said of a job, what the
// judge said of a bench and of the run. It holds names only; deciding which
// one applies is the judge's work (orchestrator/judge), and the sampler's
// wire format keeps plain strings that map one to one onto these.
package status
