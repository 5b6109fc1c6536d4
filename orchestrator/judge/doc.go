// Package judge decides what a run's numbers mean, and only that: whether the
// siblings of a bench did the same work (their check lines agree), how each
// sibling compares with the subject, whether the subject regressed against
// its baseline, and what that makes of the bench and of the run. Pure logic
// over values already measured: no engine, no files. The statuses it speaks
// in are orchestrator/status's.
package judge
