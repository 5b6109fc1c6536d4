// Package lifecycle is what every run of halebench does around its own
// work, whether it samples the suite (harness) or the xproc pair: it names
// the run, removes what a killed run left on the engine, reads the host,
// dials BuildKit and keeps the image builder, probes the most privilege the
// host grants on one fixed image, takes the host's CPU lock, and keeps the
// sampler containers a run starts. It decides nothing about numbers.
package lifecycle
