// Package repro makes an image's digest a function of its inputs alone.
//
// The engine's embedded BuildKit (Docker 20.10 ships v0.8) stamps the build
// time into the image config and history, ignores SOURCE_DATE_EPOCH and the
// exporter's rewrite-timestamp, and leaves every file a build step touched
// with that step's wall-clock mtime. repro takes the image BuildKit exported,
// rewrites each layer tar canonically (mtimes clamped to SOURCE_DATE_EPOCH,
// no atime/ctime, no user/group names, only xattr PAX records), sets every
// time in the config to SOURCE_DATE_EPOCH and loads the result under its
// final reference: same inputs, same bytes, same digest. What a build step
// writes that varies in content (apt and dpkg logs, apt's binary caches,
// ldconfig's aux-cache) is removed by the Dockerfiles themselves, not here.
//
// It also lists what an image holds (packages, files) so that two builds that
// differ can be told apart. It builds nothing and runs no container.
package repro
