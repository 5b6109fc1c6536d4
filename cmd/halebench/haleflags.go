package main

import (
	"flag"

	"github.com/hale-lang/halebench/orchestrator/imagebuild"
)

// haleFlags choose a pinned hale release and the crates of an offline build.
type haleFlags struct {
	git, ref, vendor string
}

func (h *haleFlags) addFlags(fs *flag.FlagSet) {
	fs.StringVar(&h.git, "hale-git", "", "hale git repository (URL, or a local directory, bare or not) to clone --hale-ref of when no --hale-src is given (needs git)")
	fs.StringVar(&h.ref, "hale-ref", imagebuild.DefaultHaleRef, "the tag of --hale-git to build")
	fs.StringVar(&h.vendor, "hale-vendor", "", "crates for an offline hale-cli build, one folder per crate (as cargo vendor lays them out, or plain source trees); used when crates.io does not answer, with Debian's packaged crates")
}

func (h *haleFlags) apply(o *imagebuild.Options) {
	o.HaleGit, o.HaleRef, o.HaleVendor = h.git, h.ref, h.vendor
}
