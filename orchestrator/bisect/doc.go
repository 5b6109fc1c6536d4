// Package bisect finds every commit of hale's first-parent history between
// a good and a bad end where a bench moved past a threshold: each step,
// not only the first. The search takes a Judge that builds a commit and
// compares two builds, so every rule of it is tested with fakes; the two
// judges live here too (abjudge.go: hale built per commit and compared by
// ab's rounds, its engine work behind Steps; reports.go: the count-only
// reports of a CI fan-out, with the plan that makes them), and so does the
// result's grid and JSON (render.go). A segment whose ends differ is
// split at a built commit near its middle until the step is between
// adjacent commits; built commits and comparisons are reused. It never
// guesses: ends that do not differ, a drift no commit makes, and a step
// hidden among commits that do not build are each reported as such. The
// commits it walks are listed here too (history.go: a repository's
// first-parent line, through package gitrepo's git).
package bisect
