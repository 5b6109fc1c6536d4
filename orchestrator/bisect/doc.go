// Package bisect finds every commit of hale's first-parent history between
// a good and a bad end where a bench moved past a threshold: each step,
// not only the first. It is the search alone: building a commit and
// comparing two builds are a Judge the caller gives (cmd/halebench wires
// one on the A/B machinery; bisect --from-reports one on stored counts),
// so every rule here is tested with fakes. A segment whose ends differ is
// split at a built commit near its middle until the step is between
// adjacent commits; built commits and comparisons are reused. It never
// guesses: ends that do not differ, a drift no commit makes, and a step
// hidden among commits that do not build are each reported as such. The
// commits it walks are listed here too (history.go: a repository's
// first-parent line, through package gitrepo's git).
package bisect
