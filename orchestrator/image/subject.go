package image

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/suite"
)

// SubjectBuild makes the toolchain image of the language built from a
// tree the user gives (suite.Language.SubjectBuild: hale-cli from a
// hale checkout or a ref of hale's repository) rather than from its
// Dockerfile alone. orchestrator/subject's Build is the one there is; Options.Subject
// holds it, and it builds through the Builder's exported steps (Base,
// BuildOnBase, Given, Finish, Run).
type SubjectBuild interface {
	// Toolchain makes lang's toolchain image with b, filling tc. What
	// cannot be had comes back Unavailable, a failed build BuildFailed,
	// with the reason; that is not an error.
	Toolchain(ctx context.Context, b *Builder, tc Toolchain, lang suite.Language) (Toolchain, error)
	// CacheKey names, without the engine, what the build is made from
	// (CacheKey's part of it): the same strings for the same inputs.
	CacheKey() []string
}

// noSubjectKey is CacheKey's part for no subject build: as many empty
// strings as subject.Build gives, so that a key stays what it was.
var noSubjectKey = []string{"", "", "", "", ""}

// subject makes the toolchain of a SubjectBuild language with
// Options.Subject.
func (b *Builder) subject(ctx context.Context, tc Toolchain, lang suite.Language) (Toolchain, error) {
	if b.opts.Subject == nil {
		tc.Status, tc.Reason = Unavailable, fmt.Sprintf("no way to build %s's toolchain was given (its source tree, repository or image)", lang.Name)
		return tc, nil
	}
	return b.opts.Subject.Toolchain(ctx, b, tc, lang)
}

// Recipe is a toolchain image a SubjectBuild asks for, built FROM the base
// image: named <prefix>/toolchain-<Name>, tagged by the digest of the
// base, Shipped, Parts and the epoch.
type Recipe struct {
	Name       string
	ContextDir string            // the build context
	Dockerfile []byte            // the Dockerfile built (Shipped with what the build fills in)
	Shipped    []byte            // the Dockerfile as shipped: its digest is recorded
	Parts      []string          // what else the image is made from, in a fixed order
	Files      map[string]string // recorded inputs: a file's name → its digest
	Args       map[string]string // build arguments (BASE is added)
}

// BuildOnBase builds r (or finds it made from these inputs) into tc.
func (b *Builder) BuildOnBase(ctx context.Context, tc *Toolchain, r Recipe) error {
	base, err := b.Base(ctx)
	if err != nil {
		return err
	}
	dfDir, err := b.materialize(map[string][]byte{"Dockerfile": r.Dockerfile})
	if err != nil {
		return err
	}
	defer os.RemoveAll(dfDir)
	tc.Base = base.Ref + "@" + base.ID
	in := &Inputs{DockerfileSHA256: sha256Hex(r.Shipped), BaseDigest: base.ID, Files: r.Files}
	key := append(append([]string{base.ID, string(r.Shipped)}, r.Parts...), b.epochString())
	r.Args["BASE"] = base.Ref
	return b.buildOrFind(ctx, tc, image{tag: archTag(b.arch()), arch: b.arch(),
		repo: b.opts.Prefix + "/toolchain-" + r.Name, key: inputsDigest(key...),
		contextDir: r.ContextDir, dfDir: dfDir, args: r.Args, in: in, what: "toolchain " + r.Name, parent: base.layers,
		parentWhy: parentWhy(base.Ref, base.Provenance),
	})
}

// Given takes ref, an image the user named, as tc's image, built FROM
// what base says; false when the engine does not have it.
func (b *Builder) Given(ctx context.Context, tc *Toolchain, ref, base string) (bool, error) {
	img, ok, err := b.eng.Image(ctx, ref)
	if err != nil || !ok {
		return false, err
	}
	tc.Ref, tc.ID, tc.Base, tc.layers = ref, img.ID, base, img.Layers
	tc.Provenance = provenance(OriginGiven, CheckedUser, "")
	return true, nil
}

// Finish asks tc's image for its toolchain's version (and its packages)
// and makes it Available, or Unavailable when the version does not run.
func (b *Builder) Finish(ctx context.Context, tc Toolchain, lang suite.Language) (Toolchain, error) {
	return b.finish(ctx, tc, lang)
}

// Run runs argv in a one-shot container of image ref and returns its
// output.
func (b *Builder) Run(ctx context.Context, ref string, argv []string) (string, error) {
	return b.eng.Command(ctx, ref, b.opts.RunID, argv)
}

// Log is where the builder writes its progress.
func (b *Builder) Log() io.Writer { return b.log }

// HaleBuild is how the hale toolchain image was made, as the report records it.
type HaleBuild struct {
	Src              string   `json:"src,omitempty"`    // --hale-src tree
	Git              string   `json:"git,omitempty"`    // --hale-git URL or directory
	Ref              string   `json:"ref,omitempty"`    // the tag, branch or commit id fetched from Git
	Commit           string   `json:"commit,omitempty"` // the commit that tag names
	Vendor           string   `json:"vendor,omitempty"` // --hale-vendor directory
	VendorCrates     []string `json:"vendor_crates,omitempty"`
	WorkspaceVersion string   `json:"workspace_version,omitempty"` // [workspace.package] version of the tree
	Way              string   `json:"way,omitempty"`               // crates-io or debian (offline, Debian's crates + vendor)
	CargoLockSHA256  string   `json:"cargo_lock_sha256,omitempty"` // the Cargo.lock the build resolved
	Rustc            string   `json:"rustc,omitempty"`
	Cargo            string   `json:"cargo,omitempty"`
	CargoSeconds     int      `json:"cargo_seconds,omitempty"` // the cargo build step alone (a warm shared target dir shrinks it)
	ReleaseCheck     string   `json:"release_check,omitempty"` // "agrees", or what disagrees
}

// Notes are the lines `halebench images` prints under its table for a
// toolchain: how hale was built and what its release rule found.
func (tc Toolchain) Notes() []string {
	var out []string
	if hb := tc.Hale; hb != nil && hb.Way != "" {
		from := hb.Src
		if from == "" {
			from = fmt.Sprintf("%s at %s (commit %s)", hb.Git, hb.Ref, hb.Commit)
		}
		out = append(out, fmt.Sprintf("%s: built from %s, way %s, Cargo.lock sha256 %s, %s; vendored: %s; release rule: %s",
			tc.Lang, from, hb.Way, hb.CargoLockSHA256, hb.Rustc, strings.Join(hb.VendorCrates, " "), hb.ReleaseCheck))
	}
	for _, w := range tc.Warnings {
		out = append(out, tc.Lang+": warning: "+w)
	}
	return out
}
