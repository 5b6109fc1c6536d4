// Package report holds the JSON report of a run — the seed suite's schema
// plus the evidence a release needs (host, privilege, image digests,
// toolchain versions, cpusets, sources digest) — and writes it, and renders
// the human grid of the seed's README from it.
//
// It decides nothing: statuses arrive already judged.
package report
