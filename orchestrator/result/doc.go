// Package result is the one envelope every measuring verb's document
// shares: a kind (run, ab or xproc) and a schema naming its id and version,
// and the one bounded reader every verb that takes a stored document reads
// it through (show, compare, report, merge, bundle, verify, --shard-costs).
// It says which kind a file is and refuses, naming the file and the kind,
// a document a verb does not take.
//
// It holds no rendering: the documents' types are
// orchestrator/report's (run, ab and xproc); merge joins shards of
// any kind. Like those packages it links no Docker, BuildKit or engine
// code, so a verb that only reads JSON links none.
//
// It plans no shards (that is orchestrator/plan's: which part K is, the
// partition, the costs that balance it); JobTimes reads what an earlier
// run report recorded each bench took, for --shard-costs.
//
// merge.go makes one report of the shards of one sharded run
// (halebench merge): it refuses shards that are not of the same run — other
// suites or sources, other subject builds or images, other settings, a
// different partition, a bench twice, a shard missing or given twice, a
// file that is no shard — naming the file and why, and otherwise joins
// them as they are: each bench's row, counts and verdicts exactly as its
// shard's machine decided them, each shard's host kept, the run's status
// the worst of its shards'. The shards of one ab (ab --shard=K/N) merge
// the same way (AB): each bench's paired ratio as its shard measured it;
// so do the shards of one xproc (Xproc): each pair's row, and its ratios
// against the reference rows its own shard measured, as that shard
// measured them.
//
// Files is the one path every kind merges through: it reads each file
// through result's bounded reader, refuses shards of two kinds, and joins
// them by their kind's rule. It reads JSON documents, which are hostile
// input, and links no Docker, BuildKit or engine code.
package result
