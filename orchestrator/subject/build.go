package subject

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/hale-lang/halebench/images"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/suite"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Build is how hale's toolchain is had: a local image (Image), or hale-cli
// built from a source tree (Src) or a ref of a repository (Git, Ref), with
// the crates cargo takes from Vendor instead of a registry. It is the
// image.SubjectBuild of hale (image.Options.Subject).
type Build struct {
	Src string // a hale source tree to build hale-cli from
	// SrcDefault: Src is the default ../hale, not given; where it is
	// absent the pinned release is tried from URL() first.
	SrcDefault bool
	Git        string // a hale git repository (URL or directory) to clone Ref of, when no Src
	Ref        string // the tag, branch or commit id of Git (default DefaultRef)
	Vendor     string // crates cargo takes from here instead of a registry
	Image      string // a local image that already has `hale` on PATH
}

var _ image.SubjectBuild = Build{}

// build is one Build under way: its inputs, the builder it builds with
// and the language's images/ folder (Dockerfile, build.sh).
type build struct {
	Build
	ib  *image.Builder
	log io.Writer
	dir string
}

// Toolchain makes hale's toolchain image with ib (image.SubjectBuild).
func (h Build) Toolchain(ctx context.Context, ib *image.Builder, tc image.Toolchain, lang suite.Language) (image.Toolchain, error) {
	return (&build{Build: h, ib: ib, log: ib.Log(), dir: lang.Image}).hale(ctx, tc, lang)
}

// DefaultRef is the hale release this suite's programs are written for.
const DefaultRef = "v0.17.0"

// haleBuildInfo is where images/hale/build.sh leaves its record in the image.
const haleBuildInfo = "/usr/local/share/halebench/hale-build.txt"

const haleHowTo = "give --hale-git=URL|DIR (hale's repository; --hale-ref=TAG|BRANCH|COMMIT, default " + DefaultRef + "), --hale-src=DIR (a hale-lang/hale checkout) or --hale-image=REF (a local image with `hale` on PATH); where crates.io does not answer add --hale-vendor=DIR"

// hale makes the hale toolchain: the --hale-image given, or hale-cli built
// from a --hale-src tree or a --hale-git tag. What cannot be had comes back
// Unavailable, a failed build BuildFailed, with the reason.
func (b *build) hale(ctx context.Context, tc image.Toolchain, lang suite.Language) (image.Toolchain, error) {
	if b.Image != "" {
		return b.givenHale(ctx, tc, lang)
	}
	hb := &image.HaleBuild{Vendor: b.Vendor}
	tc.Hale = hb
	if b.Src == "" && b.Git == "" {
		tc.Status, tc.Reason = image.Unavailable, "no hale source and no hale image; "+haleHowTo
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
		tc.Status, tc.Reason = image.Unavailable, why
		return tc, nil
	}
	if err := b.buildHale(ctx, &tc, ctxDir, parts); err != nil {
		if ctx.Err() != nil {
			return tc, err
		}
		fmt.Fprintf(b.log, "toolchain hale: build failed:\n%s\n", termtext.Clean(err.Error()))
		tc.Status = image.BuildFailed
		hint := "cargo needs crates.io, or Debian's packaged crates plus --hale-vendor=DIR holding the crates Debian lacks (inkwell 0.5.0 with inkwell_internals 0.10.0, llvm-sys 180.0.0, tree-sitter-go 0.21.2 for hale v0.17.0)"
		tc.Reason = fmt.Sprintf("building hale-cli from %s failed: %s; the build log's tail is on stderr (%s); or give --hale-image=REF", source(hb), lastLine(err.Error()), hint)
		return tc, nil
	}
	tc, err = b.ib.Finish(ctx, tc, lang)
	if err != nil || tc.Status != image.Available {
		return tc, err
	}
	return b.haleRecord(ctx, tc)
}

// givenHale is the --hale-image: a local image with hale on PATH.
func (b *build) givenHale(ctx context.Context, tc image.Toolchain, lang suite.Language) (image.Toolchain, error) {
	ok, err := b.ib.Given(ctx, &tc, b.Image, "given with --hale-image")
	if err != nil {
		return tc, err
	}
	if !ok {
		tc.Status = image.Unavailable
		tc.Reason = fmt.Sprintf("image %s given with --hale-image is not in the engine's image store; load it (docker load) or build it from a hale tree with --hale-src=DIR or --hale-git=URL", b.Image)
		return tc, nil
	}
	return b.ib.Finish(ctx, tc, lang)
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
func (b *build) haleContext(ctx context.Context, hb *image.HaleBuild, ctxDir string) (haleParts, string, error) {
	var p haleParts
	var crates []vendorCrate
	if b.Vendor != "" {
		var err error
		if crates, err = scanVendor(b.Vendor); err != nil {
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
	if b.Vendor != "" {
		if p.vendor, err = hashTree(b.Vendor); err != nil {
			return p, "", fmt.Errorf("reading --hale-vendor %s: %w", b.Vendor, err)
		}
		if err := copyTree(b.Vendor, vendorDir); err != nil {
			return p, "", fmt.Errorf("copying --hale-vendor %s into the build context: %w", b.Vendor, err)
		}
	} else if err := os.Mkdir(vendorDir, 0o755); err != nil {
		return p, "", err
	}
	p.script, _ = images.FS.ReadFile(b.dir + "/build.sh")
	p.patch = []byte(patchConfig(crates, "/halebench/vendor"))
	if err := os.WriteFile(filepath.Join(ctxDir, "build.sh"), p.script, 0o644); err != nil {
		return p, "", err
	}
	return p, "", os.WriteFile(filepath.Join(ctxDir, "patch.toml"), p.patch, 0o644)
}

// haleSource puts hale's tree in srcDir: a copy of --hale-src, or a clone
// of the --hale-git tag.
func (b *build) haleSource(ctx context.Context, hb *image.HaleBuild, srcDir string, p *haleParts) (string, error) {
	if b.Src != "" && b.SrcDefault && b.Git == "" && !haleTree(b.Src) {
		return b.pinnedRelease(ctx, hb, srcDir, p)
	}
	if b.Src != "" {
		hb.Src = b.Src
		if !haleTree(b.Src) {
			return fmt.Sprintf("no hale source tree at %s (crates/hale-cli missing); %s", b.Src, haleHowTo), nil
		}
		var err error
		if p.src, err = hashTree(b.Src); err != nil {
			return "", fmt.Errorf("reading hale source tree %s: %w", b.Src, err)
		}
		if err := copyTree(b.Src, srcDir); err != nil {
			return "", fmt.Errorf("copying hale source tree %s into the build context: %w", b.Src, err)
		}
		return "", nil
	}
	hb.Git, hb.Ref = b.Git, b.Ref
	if hb.Ref == "" {
		hb.Ref = DefaultRef
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
func (b *build) buildHale(ctx context.Context, tc *image.Toolchain, ctxDir string, p haleParts) error {
	df, _ := images.FS.ReadFile(b.dir + "/Dockerfile")
	cacheArgs := b.haleCacheArgs(ctx, tc.Hale)
	return b.ib.BuildOnBase(ctx, tc, image.Recipe{
		Name: tc.Lang, ContextDir: ctxDir, Dockerfile: haleDockerfile(df, cacheArgs), Shipped: df,
		Parts: []string{string(p.script), string(p.patch), p.src, p.vendor}, Args: cacheArgs,
		Files: map[string]string{"build.sh": sha256Hex(p.script), "patch.toml": sha256Hex(p.patch), "hale source (commit or tree)": p.src, "vendor tree": p.vendor},
	})
}

// haleRecord reads how hale-cli was built from the image and applies the
// release rule.
func (b *build) haleRecord(ctx context.Context, tc image.Toolchain) (image.Toolchain, error) {
	hb := tc.Hale
	out, err := b.ib.Run(ctx, tc.Ref, []string{"cat", haleBuildInfo})
	if err != nil {
		return tc, fmt.Errorf("reading the hale build record %s in %s: %w", haleBuildInfo, tc.Ref, err)
	}
	readRecord(hb, out)
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

// source is where hb's tree came from.
func source(hb *image.HaleBuild) string {
	if hb.Src != "" {
		return hb.Src
	}
	return hb.Git + " at " + hb.Ref
}

// readRecord takes build.sh's key=value lines.
func readRecord(hb *image.HaleBuild, s string) {
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
	in, err := image.OpenSource(from)
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

// hashTree digests the names, modes and sizes+mtimes of a source tree: a
// cheap stand-in for its content that changes whenever a file does.
func hashTree(root string) (string, error) {
	h := sha256.New()
	var paths []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "target") {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			paths = append(paths, p)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	sort.Strings(paths)
	for _, p := range paths {
		st, err := os.Lstat(p) // a link is named, not followed
		if err != nil {
			continue
		}
		fmt.Fprintf(h, "%s %d %d\n", p, st.Size(), st.ModTime().UnixNano())
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// lastLine is the last line of what a tool printed (an error, a build
// log), cleaned by termtext: it goes into reasons, reports and CI logs.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return termtext.Line(strings.TrimSpace(lines[len(lines)-1]))
}

func sha256Hex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
