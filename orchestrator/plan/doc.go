// Package plan is what every measuring verb (run, ab, xproc) expands into
// and the one way its jobs reach the sampler pool. A Job is one cell's
// (bench, language) job on one side, at a placement (runner.Place); jobs
// are grouped in units a Schedule orders round by round (RoundRobin for a
// run's languages, Interleaved for ab's randomized paired rounds, one unit
// a run for an xproc row); Exec runs a schedule over the units, and Send is
// the single function that hands a job (or an xproc reader+producer pair)
// to the Sampler; OnCPUs is the count lane's schedule, one task per CPU
// at a time. Digest names the sources a plan measured, the same way
// for every verb.
//
// It decides nothing about what a sample means: each verb's Take reads the
// outcomes (its lanes, its paired ratios, its rows) and says when a unit
// is done.
package plan
