// Package report holds the JSON report of a run — the seed suite's schema
// plus the evidence a release needs (host, privilege, image digests,
// toolchain versions, cpusets, sources digest) — and writes it, and renders
// the human grid of the seed's README from it.
//
// It owns its schema: its types are its own (the engine's, the image
// builder's and the sampler's values are converted into them by
// orchestrator/collect), so reading a report links neither Docker nor
// BuildKit. It decides nothing: statuses arrive already judged, and what a
// status means is orchestrator/judge's to say.
//
// atomicfile.go writes an output file (a report, a page, a bundle)
// whole or not at all, and never through a link: the data goes to a new
// temporary file beside the target (created exclusively, so no planted
// name is opened), then is renamed over it. A target that is a symlink or
// not a regular file is refused. It reads nothing and knows no format.
//
// abreport.go holds the result of `halebench ab` (schema halebench-ab/1):
// each bench's paired comparison of sides A and B, the evidence a run
// report carries — the host and the privilege granted or refused, each
// side's images with their digests and provenance and its subject build —
// in the report package's types, and its renderers (Grid, Markdown, JSON;
// its HTML page is orchestrator/render's, as every page is). It links no engine; running the rounds is package ab's.
//
// xprocreport.go holds the result of `halebench xproc` (schema
// halebench-xproc/1): each pair's runs and figures, the evidence a run
// report carries (host, privilege, images with digests and provenance, the
// subject's build) in the report package's types, and its tables. It links
// no engine: `halebench show` reads and prints a stored xproc report with
// it. Measuring the pairs is package xproc's.
package report
