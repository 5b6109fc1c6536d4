// Package enginefake is an engine held in memory, for tests of pure logic
// (what prune decides and removes, what a builder asks for): an image store
// of tagged images with labels, sizes and the order they were made in, a
// build cache of a given size, and builds that record what they were asked
// and store an image whose ID is the digest of the request.
//
// It is not a second driver and imitates none of Docker's behaviour beyond
// what those tests read: code that talks to the engine is tested on the
// real one (package enginetest).
package enginefake
