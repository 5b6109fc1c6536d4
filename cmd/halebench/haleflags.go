package main

import (
	"flag"

	"github.com/hale-lang/halebench/orchestrator/subject"
)

// addHaleFlags gives a verb --hale-git, --hale-ref and --hale-vendor: a
// pinned hale release and the crates of an offline build.
func addHaleFlags(fs *flag.FlagSet, b *subject.Build) {
	fs.StringVar(&b.Git, "hale-git", "", "hale git repository (URL, or a local directory, bare or not) to clone --hale-ref of when no --hale-src is given (needs git)")
	fs.StringVar(&b.Ref, "hale-ref", subject.DefaultRef, "the tag, branch or commit id of --hale-git to build (a remote takes a full commit id)")
	fs.StringVar(&b.Vendor, "hale-vendor", "", "crates for an offline hale-cli build, one folder per crate (as cargo vendor lays them out, or plain source trees); used when crates.io does not answer, with Debian's packaged crates")
}
