// Package report holds the JSON report of a run — the seed suite's schema
// plus the evidence a release needs (host, privilege, image digests,
// toolchain versions, cpusets, sources digest) — and writes it, and renders
// the human grid of the seed's README from it.
//
// It owns its schema: its types are its own (the engine's, the image
// builder's and the sampler's values are converted into them by
// orchestrator/session), so reading a report links neither Docker nor
// BuildKit. It decides nothing: statuses arrive already judged, and what a
// status means is orchestrator/judge's to say.
package report
