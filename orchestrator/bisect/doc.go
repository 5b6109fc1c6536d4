// Package bisect finds the first commit of hale's first-parent history
// between a good and a bad end that moves a bench past a threshold. It is
// the search alone: building a commit and comparing two builds are a Judge
// the caller gives (cmd/halebench wires one on the A/B machinery), so every
// rule here is tested with fakes. It never guesses: ends that do not
// differ, a commit like neither end, and a first move hidden among commits
// that do not build are each reported as such.
package bisect
