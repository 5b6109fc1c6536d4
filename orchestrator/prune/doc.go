// Package prune removes what halebench's builds leave behind: bench and
// toolchain images that no report under results/ names and that are not
// among the latest builds, and the engine's build cache past a size. It
// touches only images halebench made (its repositories, or its bench
// label), never forces a removal, and can be kept to one labelled scope of
// bench images. It does not build or run anything.
package prune
