// Package subject has hale's toolchain image made: from a --hale-image, or
// hale-cli built from a --hale-src folder or a --hale-git ref (cloned with
// the host's git, package gitrepo), with a --hale-vendor folder of crates.
// A Build is the image.SubjectBuild of the language whose toolchain
// entry says SubjectBuild; orchestrator/image builds what it asks for FROM the
// base and knows nothing of hale.
//
// The build context is assembled in a temporary folder (the tree, the
// vendor folder, cargo [patch] entries and images/hale/build.sh) rather
// than given to BuildKit as several named contexts, because the Dockerfile
// frontend built into a 20.10 engine has no named contexts and one
// assembled context keeps the Dockerfile the readable definition;
// BuildKit's content checksums make the copy's fresh timestamps irrelevant
// to the cache. cargo's target dir is a BuildKit cache mount chosen by
// trust (cache.go). Every file of a tree is read on this host without
// following a link (image.OpenSource). After the build, the image's
// record of how it was built is read and the release rule applied.
package subject
