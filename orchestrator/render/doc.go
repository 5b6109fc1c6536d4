// Package render turns stored documents into the self-contained HTML pages
// people look at instead of the JSON, all from one generator (one layout,
// one style sheet, one Content-Security-Policy; pages.go). A run's page: a
// header with the host, the subject's version, the images and the verdict;
// what needs attention first, each verdict with its size (the ratio and its
// interval, baseline → now, the metric); per category a ratio chart and a
// table of every median, per bench a strip plot of every sample, all SVG
// drawn here, each language told by a marker's shape as well as its
// colour; and, given several reports, a trend of the subject's median per
// bench. An ab result's page (a forest plot of its ratios B/A and their
// table) and an xproc report's (per variant a chart and its table) are
// drawn by the same layout. No page has a script or asks the network for
// anything. It reads documents; it never runs a bench or talks to the
// engine.
//
// compare.go sets two stored run reports side by side, bench by
// bench, as benchstat does for Go benchmarks: the old and new medians of
// one language, the change, a two-sided Mann–Whitney p-value over the
// stored samples, and whether the change is significant — marked where the
// samples are too few for the test to reach the level at all — with a
// geomean row, and a label for every bench without a comparison. Its JSON
// is the halebench-compare/2 document. It reads reports only: no engine,
// no baselines.
//
// junit.go, summary.go and verdict.go turn a finished run's report into what CI systems
// read: a JUnit XML file (one test case per subject bench), a Markdown
// step summary appended to a file such as $GITHUB_STEP_SUMMARY (the
// verdict first, then what needs attention, then the grid), and the
// one-line verdict halebench ends its stderr with. What a status means is
// asked of orchestrator/judge, never decided here; every piece of text a
// bench or a toolchain wrote passes through orchestrator/termtext first, so
// none of it becomes a CI runner's command. It reads a report and writes
// files; it neither runs nor judges anything.
package render
