// Package compare sets two stored run reports side by side, bench by
// bench, as benchstat does for Go benchmarks: the old and new medians of
// one language, the change, a two-sided Mann–Whitney p-value over the
// stored samples, and whether the change is significant. It reads reports
// only: no engine, no baselines.
package compare
