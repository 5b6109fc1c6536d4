// Package session is the one setup path of every verb that uses the
// engine (run, xproc, images, verify, bundle, replay, own-image, prune):
// Open, on an engine the caller dialled (it never dials one: cmd/halebench
// wires the driver in), takes the engine's one lock (a container of a fixed
// name, shared by every verb and every user of that engine), names the run,
// removes what a killed run left, reads the host and dials BuildKit;
// BuildImages makes the images a verb needs for its languages and sources;
// Ready probes the most privilege the host grants on one fixed image, pins
// halebench to CPU 0 and returns the Sampling that keeps the sampler
// containers — the only thing that samples, so nothing samples before the
// probe. When the builder handed out an image not trusted (restored from a
// cache folder with no signature to check, or built on one: see
// image.Provenance), Ready asks for no privilege at all, as
// --unprivileged does, and records the withheld modes with why. Close
// undoes it all and releases the lock last; the engine is the caller's to
// hang up. ErrInterrupted is the one error of a cancelled verb. It decides
// nothing about numbers.
//
// prune.go removes what halebench's builds leave behind: bench and
// toolchain images that no report under results/ names and that are not
// among the latest builds, and the engine's build cache past a size. It
// touches only images halebench made (its repositories, or its bench
// label), never forces a removal, and can be kept to one labelled scope of
// bench images. It does not build or run anything.
package session
