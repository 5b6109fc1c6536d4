// Package toolchain names the languages halebench measures and, for each, how
// a bench source is compiled, how it is run and how its toolchain reports its
// version. It is the one table every other package reads; it builds nothing.
package toolchain
