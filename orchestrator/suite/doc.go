// Package suite discovers a suite's benches: the source files under its
// kind folders (micro, app, guards), one file per language named
// <bench>.<ext>, and catalogue.json beside them, which places each bench in a
// grid category and says how many CPUs it needs and which siblings are not
// comparable (a suite without one has a category per folder). A suite keeps
// those folders under benches/ (halebench's layout) or at its root (the seed
// repository's layout); Layout says which, and what files make its images.
//
// It reads files and builds nothing.
//
// toolchain.go names the languages halebench measures and, for each, how
// a bench source is compiled, how it is run and how its toolchain reports its
// version. It is the one table every other package reads; it builds nothing.
package suite
