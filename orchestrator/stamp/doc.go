// Package stamp says which halebench this is — its version, the VCS
// commit it was built from, whether that tree was dirty, the Go that built
// it — as every document halebench writes records it (the "halebench"
// record of a report, an ab or xproc result, a bundle's manifest, compare's
// JSON, baselines.json, bisect's JSON), and compares a stored record with
// this binary's (Another: verify's and replay's note).
//
// It sits below every room that writes a document (judge writes
// baselines.json and may not import report), so it imports nothing of
// halebench's but termtext, to make a stored record's text safe to print.
// It is not the report's schema: it is one record that schema holds.
package stamp
