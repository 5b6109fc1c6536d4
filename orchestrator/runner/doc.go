// Package runner takes the samples of one (bench, language) pair: it starts
// one sandboxed, CPU-pinned container of the language's bench image, in which
// the sampler runs the warm-up and every sample as child processes, and it
// reads back the sampler's result. A container per pair, never per sample,
// keeps the per-sample cost at a fork+exec and a cgroup mkdir.
//
// It decides nothing about regressions or parity; it reports what it saw.
package runner
