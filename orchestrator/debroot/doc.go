// Package debroot assembles, as an ordinary user, a small Debian root
// filesystem from a mirror's packages: enough to run a bootstrapper
// (mmdebstrap) inside a container, where it is the container's own root.
// It downloads the suite's index and the .debs it needs, each checked by
// sha256 against the InRelease file fetched over HTTPS, and unpacks the
// .debs' files into one tar stream without running their maintainer
// scripts. It needs no root, no user namespaces and no host tool.
//
// It is not a Debian installer: what it makes is only fit to run a
// bootstrapper once, and the image halebench builds FROM is the
// bootstrapper's output, not this.
package debroot
