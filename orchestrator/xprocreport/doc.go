// Package xprocreport is the result of `halebench xproc` (schema
// halebench-xproc/1): each pair's runs and figures, the evidence a run
// report carries (host, privilege, images with digests and provenance, the
// subject's build) in the report package's types, and its tables. It links
// no engine: `halebench show` reads and prints a stored xproc report with
// it. Measuring the pairs is package xproc's.
package xprocreport
