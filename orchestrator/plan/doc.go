// Package plan is what every measuring verb (run, ab, xproc) expands into
// and the one way its jobs reach the sampler pool. A Job is one cell's
// (bench, language) job on one side, at a placement (runner.Place); jobs
// are grouped in units a Schedule orders round by round (RoundRobin for a
// run's languages, Interleaved for ab's randomized paired rounds, one unit
// a run for an xproc row); Exec runs a schedule over the units, and Send is
// the single function that hands a job (or an xproc reader+producer pair)
// to the Sampler; with CPUs set, Exec runs a round's units side by side,
// one unit at a time on each CPU (run's count lane, whose jobs Shape makes
// from what the unit's first run found). Digest names the sources a plan
// measured, the same way for every verb.
//
// shard.go, partition.go, costs.go and share.go split a plan's units over
// N machines (--shard=K/N), alike for every verb: which part K is (the
// flag, or the CI's own variables: FromCI), a partition every shard
// computes alike from the same inputs — each unit with the cost the
// baselines or an earlier report record, or its cells — balanced greedily
// (longest first) so the slowest shard is as short as it can be made, and
// Divide, the one share a verb keeps its units by. A unit is never split:
// what it holds is compared within it (a bench's languages, an ab bench's
// two sides, an xproc language's rows), so it runs on one machine. That
// part is pure: it reads no file and talks to no engine; the verbs hand
// it the figures (the baselines', a report's recorded times).
//
// It decides nothing about what a sample means: each verb's Take reads the
// outcomes (its lanes, its paired ratios, its rows) and says when a unit
// is done.
package plan
