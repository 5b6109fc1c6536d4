package image

import (
	"fmt"
	"sort"
	"strings"
)

// Provenance is where an image a run uses came from and what vouches for
// it: whether a privileged container may run it.
//
// The engine's image store is trusted (who can write it is root on the
// host anyway), and an image is known by its digest, which the engine
// checks against the image's content when it loads one. So an image found
// under halebench's own tag, or built by BuildKit on this engine, is what
// it is. The cache folder is not trusted: a job that can write it (a shared
// runner folder, a workspace not cleaned between jobs) chooses what an
// entry says an inputs digest made, labels included. What a folder holds is
// trusted only when its entry is signed with HALEBENCH_CACHE_KEY (an HMAC a
// job without the key cannot make); an unsigned one is loaded under a
// reference of its own (<prefix>-restored/…), never under the tag a later
// run would find and trust. An image built FROM an image not trusted is
// not trusted either.
type Provenance struct {
	Origin  string `json:"origin"`        // built, found, restored, given
	Checked string `json:"checked"`       // what vouches for it: build, engine, hmac, user, none
	Trusted bool   `json:"trusted"`       // whether it may run privileged
	Why     string `json:"why,omitempty"` // why it is not trusted
}

// Where an image came from.
const (
	OriginBuilt    = "built"    // built by BuildKit on this engine in this run
	OriginFound    = "found"    // found on the engine under halebench's tag for these inputs
	OriginRestored = "restored" // loaded from the cache folder
	OriginGiven    = "given"    // named by the user (--base-image, --hale-image)
)

// What vouches for an image.
const (
	CheckedBuild  = "build"  // this run built it
	CheckedEngine = "engine" // the engine's store, which only builds and signed restores tag so
	CheckedHMAC   = "hmac"   // its cache entry is signed with HALEBENCH_CACHE_KEY
	CheckedUser   = "user"   // the user chose it
	CheckedNone   = "none"   // nothing: its cache entry could not be verified
)

// RestoredRepo is the repository suffix unverified restores are loaded
// under (halebench-restored/toolchain-c:…).
const RestoredRepo = "-restored"

// provenance is how an image of origin and check stands, given why its
// parents are not trusted ("" when they are).
func provenance(origin, checked, parentWhy string) *Provenance {
	p := &Provenance{Origin: origin, Checked: checked, Trusted: checked != CheckedNone && parentWhy == ""}
	switch {
	case checked == CheckedNone:
		p.Why = "restored from the cache folder with no signature this job could check (HALEBENCH_CACHE_KEY unset)"
	case parentWhy != "":
		p.Why = parentWhy
	}
	return p
}

// parentWhy says why an image built FROM ref (of provenance p) is not
// trusted, or "".
func parentWhy(ref string, p *Provenance) string {
	if p == nil || p.Trusted {
		return ""
	}
	return "built FROM " + ref + ", which is not trusted"
}

// joinWhy joins the reasons that are not "".
func joinWhy(whys ...string) string {
	var out []string
	for _, w := range whys {
		if w != "" {
			out = append(out, w)
		}
	}
	return strings.Join(out, "; ")
}

// unsignedRef is where a restore no key vouches for is loaded: ref with
// the prefix's repository moved to <prefix>-restored.
func (b *Builder) unsignedRef(ref string) string {
	if rest, ok := strings.CutPrefix(ref, b.opts.Prefix+"/"); ok {
		return b.opts.Prefix + RestoredRepo + "/" + rest
	}
	return b.opts.Prefix + RestoredRepo + "/" + strings.ReplaceAll(ref, "/", "-")
}

// note records an image's provenance; one not trusted is kept for
// Untrusted and said on the log.
func (b *Builder) note(ref string, p *Provenance) {
	if p.Trusted {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.untrusted == nil {
		b.untrusted = map[string]string{}
	}
	if _, seen := b.untrusted[ref]; !seen {
		fmt.Fprintf(b.log, "images: %s is not trusted (%s): what runs it runs unprivileged\n", ref, p.Why)
	}
	b.untrusted[ref] = p.Why
}

// Untrusted lists the images this builder made, found or restored that may
// not run privileged, as "reference: why", sorted.
func (b *Builder) Untrusted() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for ref, why := range b.untrusted {
		out = append(out, ref+": "+why)
	}
	sort.Strings(out)
	return out
}

// Distrusts says why ref, an image this builder handed out, may not run
// privileged, and whether it may not.
func (b *Builder) Distrusts(ref string) (string, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	why, bad := b.untrusted[ref]
	return why, bad
}
