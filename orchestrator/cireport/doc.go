// Package cireport turns a finished run's report into what CI systems
// read: a JUnit XML file (one test case per subject bench), a Markdown
// step summary appended to a file such as $GITHUB_STEP_SUMMARY (the
// verdict first, then what needs attention, then the grid), and the
// one-line verdict halebench ends its stderr with. What a status means is
// asked of orchestrator/judge, never decided here; every piece of text a
// bench or a toolchain wrote passes through orchestrator/termtext first, so
// none of it becomes a CI runner's command. It reads a report and writes
// files; it neither runs nor judges anything.
package cireport
