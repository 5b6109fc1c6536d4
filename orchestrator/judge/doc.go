// Package judge decides what a run's numbers mean, and only that: whether the
// siblings of a bench did the same work (their check lines agree), how each
// sibling compares with the subject, whether the subject regressed against
// its baseline, and what that makes of the bench and of the run. Pure logic
// over values already measured: no engine, no files. The statuses it speaks
// in are orchestrator/outcome's.
//
// metric.go declares the quantities a run measures and gates, once
// each: a metric's name and unit, how a cell carries it, its keys in a
// baselines entry (their ranges, and how a run records them), what it reads
// of them, its verdict rule, the status its regression gives, and where the
// report and the grid show it. Time, memory and instructions are the three
// declared here; the judge, reading and writing baselines, the report's
// JSON, grid and count table, and bisect's --metric read the registry
// instead of naming them.
//
// The registry is not where values are measured or written: it holds rules
// over values already measured and imports no engine and no report.
//
// baseline.go, read.go and write.go read, judge against and rewrite baselines.json: the
// subject language's accepted medians, each with a tolerance band. Only the
// subject gates; they know nothing of the other languages.
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
package judge
