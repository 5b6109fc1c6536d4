// Package result is the one envelope every measuring verb's document
// shares: a kind (run, ab or xproc) and a schema naming its id and version,
// and the one bounded reader every verb that takes a stored document reads
// it through (show, compare, report, merge, bundle, verify, --shard-costs).
// It says which kind a file is and refuses, naming the file and the kind,
// a document a verb does not take.
//
// It holds no rendering and no merging: the documents' types are report's
// (run), abreport's (ab) and xprocreport's (xproc); merge joins shards of
// any kind. Like those packages it links no Docker, BuildKit or engine
// code, so a verb that only reads JSON links none.
package result
