// Package image makes every image a run needs, through the engine's
// embedded BuildKit: the Debian base (made from Debian's packages when no
// registry can be reached), one toolchain image per language, and one bench
// image per language holding the compiled benches and the sampler.
//
// BuildKit caches by content, so unchanged sources rebuild nothing; each build
// reports how many steps it really executed. It runs nothing but builds: the
// toolchain version probes use the engine package.
//
// The one toolchain built from a tree the user gives (hale's: a --hale-src
// folder or a --hale-git ref) is a SubjectBuild (subject.go) given in
// Options.Subject: orchestrator/subject assembles its context and asks the
// builder to build it FROM the base (BuildOnBase), to take a given image
// (Given) and to ask it for its version (Finish).
//
// Every image it hands out carries its Provenance (trust.go): built here,
// found on the engine, restored from a cache folder (signed or not) or given
// by the user, and whether it may run privileged.
//
// layer.go makes an image's digest a function of its inputs alone.
//
// The engine's embedded BuildKit (Docker 20.10 ships v0.8) stamps the build
// time into the image config and history, ignores SOURCE_DATE_EPOCH and the
// exporter's rewrite-timestamp, and leaves every file a build step touched
// with that step's wall-clock mtime. So the image BuildKit exported is
// rewritten: each layer tar canonically (mtimes clamped to
// SOURCE_DATE_EPOCH, no atime/ctime, no user/group names, only xattr PAX
// records), every time in the config set to SOURCE_DATE_EPOCH, and the
// result loaded under its final reference: same inputs, same bytes, same digest. What a build step
// writes that varies in content (apt and dpkg logs, apt's binary caches,
// ldconfig's aux-cache) is removed by the Dockerfiles themselves, not here.
//
// It also lists what an image holds (packages, files) so that two builds that
// differ can be told apart.
//
// rootfs.go, deb.go, index.go and fetch.go assemble, as an ordinary user, a
// small Debian root filesystem from a mirror's packages: enough to run a bootstrapper
// (mmdebstrap) inside a container, where it is the container's own root.
// It downloads the suite's index and the .debs it needs, each checked by
// sha256 against the InRelease file fetched over HTTPS, and unpacks the
// .debs' files into one tar stream without running their maintainer
// scripts. It needs no root, no user namespaces and no host tool.
//
// It is not a Debian installer: what it makes is only fit to run a
// bootstrapper once, and the image halebench builds FROM is the
// bootstrapper's output, not this.
package image
