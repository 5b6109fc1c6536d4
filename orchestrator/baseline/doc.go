// Package baseline reads, judges against and rewrites baselines.json: the
// subject language's accepted medians, each with a tolerance band. Only the
// subject gates; this package knows nothing of the other languages.
//
// The file is read as a suite file is (no symlink, no FIFO or device, a size
// cap) and trusted in nothing: one JSON object, and each metric's keys
// within the ranges the metric declares (Fields; the metric registry
// declares them): bands within (0, 1], σs within [0, 1], no negative count
// or sample, and each median agreeing with its own samples, or an
// InvalidError naming the file and the field. --update-baselines writes
// each metric's keys by the metric's own record. The
// seed suite's published file loads unchanged. Writes are atomic (a
// temporary file with the old file's mode, synced and renamed over it, the
// folder synced) and serialised by a lock file that is never a symlink, so
// two runs updating at once lose nothing and a crash leaves the old file.
package baseline
