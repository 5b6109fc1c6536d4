// Package baseline reads, judges against and rewrites baselines.json: the
// subject language's accepted medians, each with a tolerance band. Only the
// subject gates; this package knows nothing of the other languages.
//
// The seed suite's published file loads unchanged. Writes are atomic (a
// temporary file renamed over the old one) and serialised by a lock file, so
// two runs updating at once lose nothing and a crash leaves the old file.
package baseline
