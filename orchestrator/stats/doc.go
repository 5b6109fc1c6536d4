// Package stats summarises stored samples. It is pure arithmetic over the
// numbers a run kept, so a report can be re-summarised later without
// re-running anything.
package stats
