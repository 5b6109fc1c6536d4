package imagebuild

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/hale-lang/halebench/images"
	"github.com/hale-lang/halebench/orchestrator/termtext"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
)

// DefaultHaleRef is the hale release this suite's programs are written for.
const DefaultHaleRef = "v0.17.0"

// haleBuildInfo is where images/hale/build.sh leaves its record in the image.
const haleBuildInfo = "/usr/local/share/halebench/hale-build.txt"

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

const haleHowTo = "give --hale-git=URL|DIR (hale's repository; --hale-ref=TAG|BRANCH|COMMIT, default " + DefaultHaleRef + "), --hale-src=DIR (a hale-lang/hale checkout) or --hale-image=REF (a local image with `hale` on PATH); where crates.io does not answer add --hale-vendor=DIR"

// hale makes the hale toolchain: the --hale-image given, or hale-cli built
// from a --hale-src tree or a --hale-git tag. What cannot be had comes back
// Unavailable, a failed build BuildFailed, with the reason.
func (b *Builder) hale(ctx context.Context, tc Toolchain, lang toolchain.Language) (Toolchain, error) {
	if b.opts.HaleImage != "" {
		return b.givenHale(ctx, tc, lang)
	}
	hb := &HaleBuild{Vendor: b.opts.HaleVendor}
	tc.Hale = hb
	if b.opts.HaleSrc == "" && b.opts.HaleGit == "" {
		tc.Status, tc.Reason = Unavailable, "no hale source and no hale image; "+haleHowTo
		return tc, nil
	}
	ctxDir, err := os.MkdirTemp("", "halebench-hale-")
	if err != nil {
		return tc, err
	}
	defer os.RemoveAll(ctxDir)
	parts, why, err := b.haleContext(ctx, hb, ctxDir)
	if err != nil {
		return tc, err
	}
	if why != "" {
		tc.Status, tc.Reason = Unavailable, why
		return tc, nil
	}
	if err := b.buildHale(ctx, &tc, ctxDir, parts); err != nil {
		if ctx.Err() != nil {
			return tc, err
		}
		fmt.Fprintf(b.log, "toolchain hale: build failed:\n%s\n", termtext.Clean(err.Error()))
		tc.Status = BuildFailed
		hint := "cargo needs crates.io, or Debian's packaged crates plus --hale-vendor=DIR holding the crates Debian lacks (inkwell 0.5.0 with inkwell_internals 0.10.0, llvm-sys 180.0.0, tree-sitter-go 0.21.2 for hale v0.17.0)"
		tc.Reason = fmt.Sprintf("building hale-cli from %s failed: %s; the build log's tail is on stderr (%s); or give --hale-image=REF", hb.source(), lastLine(err.Error()), hint)
		return tc, nil
	}
	tc, err = b.finish(ctx, tc, lang)
	if err != nil || tc.Status != Available {
		return tc, err
	}
	return b.haleRecord(ctx, tc)
}

// givenHale is the --hale-image: a local image with hale on PATH.
func (b *Builder) givenHale(ctx context.Context, tc Toolchain, lang toolchain.Language) (Toolchain, error) {
	img, ok, err := b.eng.Image(ctx, b.opts.HaleImage)
	if err != nil {
		return tc, err
	}
	if !ok {
		tc.Status = Unavailable
		tc.Reason = fmt.Sprintf("image %s given with --hale-image is not in the engine's image store; load it (docker load) or build it from a hale tree with --hale-src=DIR or --hale-git=URL", b.opts.HaleImage)
		return tc, nil
	}
	tc.Ref, tc.ID, tc.Base, tc.layers = b.opts.HaleImage, img.ID, "given with --hale-image", img.Layers
	tc.Provenance = provenance(OriginGiven, CheckedUser, "")
	return b.finish(ctx, tc, lang)
}

// haleParts are the digests of a hale build context's files.
type haleParts struct {
	src, vendor   string // the source commit or tree digest; the vendor tree's digest
	script, patch []byte
}

// haleContext assembles hale's build context in ctxDir: the source tree
// (copied or cloned) as src/, the vendor crates as vendor/, build.sh and the
// cargo patch. why says what makes hale unavailable (a missing tree, a
// clone that failed).
func (b *Builder) haleContext(ctx context.Context, hb *HaleBuild, ctxDir string) (haleParts, string, error) {
	var p haleParts
	var crates []vendorCrate
	if b.opts.HaleVendor != "" {
		var err error
		if crates, err = scanVendor(b.opts.HaleVendor); err != nil {
			return p, "", err
		}
		for _, c := range crates {
			hb.VendorCrates = append(hb.VendorCrates, c.Name+"@"+c.Version)
		}
	}
	srcDir := filepath.Join(ctxDir, "src")
	why, err := b.haleSource(ctx, hb, srcDir, &p)
	if err != nil || why != "" {
		return p, why, err
	}
	if hb.WorkspaceVersion, err = workspaceVersion(filepath.Join(srcDir, "Cargo.toml")); err != nil {
		return p, "", err
	}
	vendorDir := filepath.Join(ctxDir, "vendor")
	if b.opts.HaleVendor != "" {
		if p.vendor, err = hashTree(b.opts.HaleVendor); err != nil {
			return p, "", fmt.Errorf("reading --hale-vendor %s: %w", b.opts.HaleVendor, err)
		}
		if err := copyTree(b.opts.HaleVendor, vendorDir); err != nil {
			return p, "", fmt.Errorf("copying --hale-vendor %s into the build context: %w", b.opts.HaleVendor, err)
		}
	} else if err := os.Mkdir(vendorDir, 0o755); err != nil {
		return p, "", err
	}
	p.script, _ = images.FS.ReadFile("hale/build.sh")
	p.patch = []byte(patchConfig(crates, "/halebench/vendor"))
	if err := os.WriteFile(filepath.Join(ctxDir, "build.sh"), p.script, 0o644); err != nil {
		return p, "", err
	}
	return p, "", os.WriteFile(filepath.Join(ctxDir, "patch.toml"), p.patch, 0o644)
}

// haleSource puts hale's tree in srcDir: a copy of --hale-src, or a clone
// of the --hale-git tag.
func (b *Builder) haleSource(ctx context.Context, hb *HaleBuild, srcDir string, p *haleParts) (string, error) {
	if b.opts.HaleSrc != "" && b.opts.HaleSrcDefault && b.opts.HaleGit == "" && !haleTree(b.opts.HaleSrc) {
		return b.pinnedRelease(ctx, hb, srcDir, p)
	}
	if b.opts.HaleSrc != "" {
		hb.Src = b.opts.HaleSrc
		if !haleTree(b.opts.HaleSrc) {
			return fmt.Sprintf("no hale source tree at %s (crates/hale-cli missing); %s", b.opts.HaleSrc, haleHowTo), nil
		}
		var err error
		if p.src, err = hashTree(b.opts.HaleSrc); err != nil {
			return "", fmt.Errorf("reading hale source tree %s: %w", b.opts.HaleSrc, err)
		}
		if err := copyTree(b.opts.HaleSrc, srcDir); err != nil {
			return "", fmt.Errorf("copying hale source tree %s into the build context: %w", b.opts.HaleSrc, err)
		}
		return "", nil
	}
	hb.Git, hb.Ref = b.opts.HaleGit, b.opts.HaleRef
	if hb.Ref == "" {
		hb.Ref = DefaultHaleRef
	}
	fmt.Fprintf(b.log, "toolchain hale: cloning %s at %s\n", hb.Git, hb.Ref)
	commit, err := cloneRef(ctx, hb.Git, hb.Ref, srcDir)
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return err.Error(), nil
	}
	hb.Commit, p.src = commit, commit
	return "", nil
}

// buildHale builds (or finds) the hale toolchain image from the assembled
// context.
func (b *Builder) buildHale(ctx context.Context, tc *Toolchain, ctxDir string, p haleParts) error {
	base, err := b.Base(ctx)
	if err != nil {
		return err
	}
	df, _ := images.FS.ReadFile("hale/Dockerfile")
	cacheArgs := b.haleCacheArgs(ctx, tc.Hale)
	dfDir, err := b.materialize(map[string][]byte{"Dockerfile": haleDockerfile(df, cacheArgs)})
	if err != nil {
		return err
	}
	defer os.RemoveAll(dfDir)
	tc.Base = base.Ref + "@" + base.ID
	in := &Inputs{DockerfileSHA256: sha256Hex(df), BaseDigest: base.ID, Files: map[string]string{
		"build.sh": sha256Hex(p.script), "patch.toml": sha256Hex(p.patch), "hale source (commit or tree)": p.src, "vendor tree": p.vendor}}
	return b.buildOrFind(ctx, tc, image{
		repo: b.opts.Prefix + "/toolchain-hale", key: inputsDigest(base.ID, string(df), string(p.script), string(p.patch), p.src, p.vendor, b.epochString()),
		contextDir: ctxDir, dfDir: dfDir, args: withBase(cacheArgs, base.Ref), in: in, what: "toolchain hale", parent: base.layers,
		parentWhy: parentWhy(base.Ref, base.Provenance),
	})
}

// haleRecord reads how hale-cli was built from the image and applies the
// release rule.
func (b *Builder) haleRecord(ctx context.Context, tc Toolchain) (Toolchain, error) {
	hb := tc.Hale
	out, err := b.eng.Command(ctx, tc.Ref, b.opts.RunID, []string{"cat", haleBuildInfo})
	if err != nil {
		return tc, fmt.Errorf("reading the hale build record %s in %s: %w", haleBuildInfo, tc.Ref, err)
	}
	hb.readRecord(out)
	if msg, ok := releaseCheck(hb.Ref, hb.WorkspaceVersion, tc.Version); ok {
		hb.ReleaseCheck = "agrees"
	} else {
		hb.ReleaseCheck = msg
		tc.Warnings = append(tc.Warnings, "hale release rule: "+msg)
		fmt.Fprintf(b.log, "warning: hale release rule: %s\n", msg)
	}
	l := termtext.Line
	fmt.Fprintf(b.log, "toolchain hale: %s, built the %s way, cargo step %d s, Cargo.lock sha256 %s, %s\n", l(tc.Version), l(hb.Way), hb.CargoSeconds, l(hb.CargoLockSHA256), l(hb.Rustc))
	return tc, nil
}

func (hb *HaleBuild) source() string {
	if hb.Src != "" {
		return hb.Src
	}
	return hb.Git + " at " + hb.Ref
}

// readRecord takes build.sh's key=value lines.
func (hb *HaleBuild) readRecord(s string) {
	for _, line := range strings.Split(s, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if !ok {
			continue
		}
		switch k {
		case "way":
			hb.Way = v
		case "cargo_lock_sha256":
			hb.CargoLockSHA256 = v
		case "rustc":
			hb.Rustc = v
		case "cargo":
			hb.Cargo = v
		case "cargo_seconds":
			hb.CargoSeconds, _ = strconv.Atoi(v)
		}
	}
}

// versionTag is a ref that names a version (v0.17.0, 0.17.0-rc1): the
// only kind of ref the release rule compares. A commit id or a branch
// (what bisect and ab build) names no version.
var versionTag = regexp.MustCompile(`^v?[0-9]+\.[0-9]+`)

// releaseCheck applies the seed's release rule: the tag, the tree's
// [workspace.package] version and `hale --version` name one version. An
// empty ref (a --hale-src tree) or one that names no version (a commit id,
// a branch) leaves the other two to agree.
func releaseCheck(tag, wsVersion, haleVersion string) (string, bool) {
	got := ""
	if f := strings.Fields(haleVersion); len(f) > 0 {
		got = f[len(f)-1]
	}
	want := wsVersion
	ok := want != "" && got == want
	isTag := versionTag.MatchString(tag)
	if isTag && strings.TrimPrefix(tag, "v") != want {
		ok = false
	}
	if ok {
		return "", true
	}
	tagPart := "tag " + tag
	switch {
	case tag == "":
		tagPart = "no tag (a --hale-src tree)"
	case !isTag:
		tagPart = "ref " + tag + " (names no version)"
	}
	return fmt.Sprintf("%s, [workspace.package] version %q and `hale --version` %q do not agree", tagPart, wsVersion, haleVersion), false
}

// copyTree copies a source tree (files, folders, symlinks, modes) without
// its .git and target folders.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		if d.IsDir() && rel != "." && (d.Name() == ".git" || d.Name() == "target") {
			return filepath.SkipDir
		}
		to := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(to, info.Mode().Perm()|0o700)
		case info.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case info.Mode().IsRegular():
			return copyFile(p, to, info.Mode().Perm())
		}
		return nil // sockets, devices: not source
	})
}

func copyFile(from, to string, mode fs.FileMode) error {
	in, err := openSource(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	// The source's mtime goes with it: cargo fingerprints path crates (the
	// vendor crates) by mtime, and a fresh one would rebuild them in the
	// shared target dir every time.
	st, err := in.Stat()
	if err != nil {
		return err
	}
	return os.Chtimes(to, st.ModTime(), st.ModTime())
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
