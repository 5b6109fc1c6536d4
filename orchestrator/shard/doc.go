// Package shard splits a run's benches over N machines (run --shard=K/N):
// which part K is (from the flag or the CI's own variables), and a
// partition every shard computes alike from the same inputs — the run's
// benches, each with the cost the baselines or an earlier report record —
// balanced greedily (longest first) so the slowest shard is as short as it
// can be made. A bench is never split: the judge compares a bench's
// languages with each other, so they run on one machine.
//
// It is pure: it reads no file and talks to no engine. Merging the shards'
// reports back into one is orchestrator/merge's.
package shard
