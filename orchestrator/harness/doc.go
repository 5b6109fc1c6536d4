// Package harness runs a suite end to end, in the one direction the data
// flows: discover benches, build images, run samples, judge, report. Prepare
// checks every input without an engine; Run is a short pipeline over values
// (images → each bench's timed measurements → the count lane, its cells
// counted in parallel once timing is over → the judge's verdict on each
// bench → the report) on an Env whose engine side sits behind small interfaces, so the
// verdict and report logic runs on fakes. The report is assembled from
// those values once, at the end or at an interruption, and never read back.
// The run's lifetime on the engine (its id, the CPU lock, clean-up, the
// privilege probe) is orchestrator/session's.
package harness
