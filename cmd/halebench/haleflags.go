package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/subject"
)

// haleFlags choose a pinned hale release and the crates of an offline build.
type haleFlags struct {
	git, ref, vendor string
}

func (h *haleFlags) addFlags(fs *flag.FlagSet) {
	fs.StringVar(&h.git, "hale-git", "", "hale git repository (URL, or a local directory, bare or not) to clone --hale-ref of when no --hale-src is given (needs git)")
	fs.StringVar(&h.ref, "hale-ref", subject.DefaultRef, "the tag, branch or commit id of --hale-git to build (a remote takes a full commit id)")
	fs.StringVar(&h.vendor, "hale-vendor", "", "crates for an offline hale-cli build, one folder per crate (as cargo vendor lays them out, or plain source trees); used when crates.io does not answer, with Debian's packaged crates")
}

func (h *haleFlags) apply(b *subject.Build) {
	b.Git, b.Ref, b.Vendor = h.git, h.ref, h.vendor
}

// check refuses, before the engine is asked, a hale input given by flag
// that is not there: --hale-src and --hale-vendor must be folders, and
// --hale-git a folder unless it is a URL.
func (h *haleFlags) check(verb, haleSrc string) error {
	dirs := []struct{ flag, path string }{{"--hale-src", haleSrc}, {"--hale-vendor", h.vendor}}
	if h.git != "" && !strings.Contains(h.git, "://") && !strings.Contains(h.git, "@") {
		dirs = append(dirs, struct{ flag, path string }{"--hale-git", h.git})
	}
	for _, d := range dirs {
		if d.path == "" {
			continue
		}
		fi, err := os.Stat(d.path)
		switch {
		case err != nil:
			return badInput(verb, fmt.Errorf("%s=%s: %w (give an existing folder)", d.flag, d.path, err))
		case !fi.IsDir():
			return badInput(verb, fmt.Errorf("%s=%s is not a folder", d.flag, d.path))
		}
	}
	return nil
}
