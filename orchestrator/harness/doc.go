// Package harness runs a suite end to end, in the one direction the data
// flows: discover benches, build images, run samples, judge, report. It owns
// the run's lifetime — its id, its locks, the clean-up of what a killed run
// left — and nothing below it reaches back up.
package harness
