// Package evidence turns a stored report into release evidence: verify
// rebuilds every image the report names from the inputs it recorded, with no
// cache, and says which digests came out equal and, for the rest, what
// differed; bundle packs the report, its images, the bench sources and the
// baselines into one file with a manifest of digests; replay loads such a
// file on another engine, checks every digest, runs the same benches on those
// images and compares its numbers with the recorded ones.
//
// verify and bundle take every kind of stored document (stored.go): a run
// report's images, an xproc report's (its bench images hold the suite's
// xproc programs), an ab result's two sides (one base and one toolchain
// per language, each side's bench images from its own suite). What one
// verify cannot rebuild is refused for a reason in the document; replay
// reruns run reports only and refuses the others for what they hold.
//
// A report and a bundle come from elsewhere, so nothing in them is trusted:
// recorded packages and mirror are held to their grammar before a build,
// a bundle is unpacked within caps and against its manifest, and its report
// and suite read and the replay planned, before any engine (Unpack), its
// image archive is read before loading and loaded only under a namespace of
// the replay's own (LoadImages), replayed images run unprivileged, and every
// name from a report is cleaned before it is printed.
//
// It reads reports and drives the builder and the harness; it measures
// nothing itself.
package evidence
