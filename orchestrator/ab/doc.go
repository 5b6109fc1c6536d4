// Package ab compares two versions of a subject — two suite trees, two
// toolchain builds — on the same benches in one run: each round, every
// bench not yet resolved takes one sample of A and one of B, the benches
// and the two sides in a seeded random order (randomized interleaved
// trials), both sides in sampler containers on the same cpuset. Each round
// gives a paired log-ratio ln(B/A); the ratio's estimate is their
// Hodges–Lehmann estimate with the exact Wilcoxon signed-rank interval
// (stats.HodgesLehmann), and judge.BandVerdict holds it against the
// threshold's band.
// Rounds go on until every bench is resolved or the rounds or the budget
// run out; the confidence is split over the looks (stats.PerLookLevel) so
// stopping early does not raise false alarms.
//
// Entry points: Compare runs the rounds (plan.Exec, plan.Interleaved) on any plan.Sampler (a prepared
// session.Sampling, or a fake) over Pairs; OnEngine opens a
// session, builds both sides' images (Prepare reads and checks the sides
// first) and runs Compare in it. The Result, its evidence and its
// renderers are orchestrator/report's, which links no engine.
package ab
