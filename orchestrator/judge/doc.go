// Package judge decides what a run's numbers mean: whether the siblings of a
// bench did the same work (their check lines agree) and whether the subject
// regressed against its baseline. Pure logic over results already measured.
package judge
