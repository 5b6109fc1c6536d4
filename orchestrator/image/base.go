package image

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/hostfile"
)

// rootfsCap bounds the rootfs archive mmdebstrap exports (a minbase trixie
// is ~130 MB): the bound on an image normalised here, 16 GiB.
const rootfsCap = 16 << 30

// BaseSuite is the Debian release every toolchain image starts from.
const BaseSuite = "trixie"

// DefaultMirror is where mmdebstrap fetches Debian's packages.
const DefaultMirror = "http://deb.debian.org/debian"

// What a base made here records of its inputs (with its epoch): the
// digest of the rootfs mmdebstrap made, and the mirror it came from.
const (
	labelRootfs = "org.halebench.base.rootfs-sha256"
	labelMirror = "org.halebench.base.mirror"
)

// Base is the image every toolchain image is built FROM.
type Base struct {
	Ref          string  `json:"reference"`
	ID           string  `json:"id"`
	Origin       string  `json:"origin"` // how it was made: mmdebstrap, or given by the user
	RootfsSHA256 string  `json:"rootfs_sha256,omitempty"`
	Inputs       *Inputs `json:"inputs,omitempty"`
	// Provenance is where the image came from and what vouches for it.
	Provenance *Provenance `json:"provenance,omitempty"`
	layers     []string    // the image's layers, which every toolchain's must start with
}

// makeBase returns the base image: the one given, or the one made here with
// mmdebstrap, found when an image of these inputs is already there.
func (b *Builder) makeBase(ctx context.Context) (Base, error) {
	if b.opts.BaseImage != "" {
		return b.givenBase(ctx)
	}
	ref := b.opts.Prefix + "/base:" + BaseSuite + "-" + b.epochString() + archTag(b.arch())
	archOpt := ""
	if b.arch() != ArchAMD64 {
		archOpt = "--arch=" + debArch(b.arch()) + " "
	}
	in := &Inputs{Builder: "mmdebstrap " + archOpt + "--variant=minbase --include=ca-certificates " + BaseSuite + " " + b.opts.Mirror + "; " + builderName(), SourceDateEpoch: b.opts.SourceDateEpoch}
	img, ok, err := b.eng.Image(ctx, ref)
	if err != nil {
		return Base{}, err
	}
	why := "it does not exist"
	if ok && !b.opts.NoCache {
		if why = b.checkBase(img); why == "" {
			in.Packages, err = b.packages(ctx, ref)
			b.keep(ctx, baseKey(in), ref, img.ID, err)
			return Base{Ref: ref, ID: img.ID, Origin: "mmdebstrap " + BaseSuite, RootfsSHA256: img.Labels[labelRootfs], Inputs: in, layers: img.Layers,
				Provenance: provenance(OriginFound, CheckedEngine, "")}, err
		}
		fmt.Fprintf(b.log, "base: found %s but not using it (%s): making it again\n", ref, why)
	}
	if base, ok, err := b.baseFromCache(ctx, ref, in); ok || err != nil {
		return base, err
	}
	if b.opts.NoBuild {
		return Base{}, fmt.Errorf("base image %s: %s, and --no-build was given; run without --no-build (or `halebench images`) once", ref, why)
	}
	base, err := b.mmdebstrap(ctx, ref)
	if err != nil {
		return Base{}, err
	}
	if in.Packages, err = b.packages(ctx, ref); err != nil {
		return Base{}, err
	}
	base.Inputs = in
	b.keep(ctx, baseKey(in), ref, base.ID, nil)
	return base, nil
}

// checkBase says why an image found under the base's tag is not a base made
// here from this run's inputs, or "": its recorded epoch and mirror must be
// this run's, its rootfs digest recorded, and it must be the one layer
// mmdebstrap's rootfs makes.
func (b *Builder) checkBase(img engine.Image) string {
	var why []string
	if got := img.Labels[LabelEpoch]; got != b.epochString() {
		why = append(why, fmt.Sprintf("its epoch is %q, this run's %s", got, b.epochString()))
	}
	if got := img.Labels[labelMirror]; got != b.opts.Mirror {
		why = append(why, fmt.Sprintf("it was made from mirror %q, this run uses %s", got, b.opts.Mirror))
	}
	if len(img.Labels[labelRootfs]) != 64 {
		why = append(why, "it records no rootfs digest")
	}
	if len(img.Layers) != 1 {
		why = append(why, fmt.Sprintf("it has %d layers, a base made here has one", len(img.Layers)))
	}
	if w := archWhy(img.Arch, b.arch()); w != "" {
		why = append(why, w)
	}
	return strings.Join(why, "; ")
}

// givenBase is the --base-image: local, or pulled from its registry when
// pinned by digest. The user's choice: it is not checked against inputs
// halebench would record.
func (b *Builder) givenBase(ctx context.Context) (Base, error) {
	ref := b.opts.BaseImage
	img, ok, err := b.eng.Image(ctx, ref)
	if err != nil {
		return Base{}, err
	}
	origin := "given with --base-image"
	if !ok {
		if err := b.pullPinned(ctx, ref); err != nil {
			return Base{}, err
		}
		if img, ok, err = b.eng.Image(ctx, ref); err != nil || !ok {
			return Base{}, fmt.Errorf("base image %s missing after the pull: %v", ref, err)
		}
		origin = "pulled with --base-image"
	}
	return Base{Ref: ref, ID: img.ID, Origin: origin, layers: img.Layers, Provenance: provenance(OriginGiven, CheckedUser, "")}, nil
}

// pinned matches a reference pinned by digest: REPO@sha256:<64 hex>.
var pinned = regexp.MustCompile(`^[^@\s]+@(sha256:[0-9a-f]{64})$`)

// pullPinned pulls ref, which must be pinned by digest: a tag is whatever
// the registry says today, a digest is the image. The engine checks what
// it is served against the digest; the pulled image must then carry it.
func (b *Builder) pullPinned(ctx context.Context, ref string) error {
	m := pinned.FindStringSubmatch(ref)
	if m == nil {
		return fmt.Errorf("base image %s is not in the engine's image store, and halebench pulls a base only pinned by digest: give --base-image=REPO@sha256:<digest>, load the image first, or drop --base-image to let halebench make one with mmdebstrap", ref)
	}
	if err := b.eng.Pull(ctx, ref); err != nil {
		return fmt.Errorf("base image %s is not in the engine's image store and could not be pulled (%v): check the registry and the digest, load it first, or drop --base-image to let halebench make one with mmdebstrap", ref, err)
	}
	img, ok, err := b.eng.Image(ctx, ref)
	if err != nil || !ok {
		return fmt.Errorf("base image %s missing after the pull: %v", ref, err)
	}
	for _, d := range img.RepoDigests {
		if strings.HasSuffix(d, "@"+m[1]) {
			return nil
		}
	}
	return fmt.Errorf("base image %s: the pulled image records digests %v, not %s; not using it", ref, img.RepoDigests, m[1])
}

// mmdebstrap makes the Debian rootfs inside the engine (bootstrapRootfs)
// and loads it, normalised, as ref.
func (b *Builder) mmdebstrap(ctx context.Context, ref string) (Base, error) {
	dir, err := os.MkdirTemp("", "halebench-base-")
	if err != nil {
		return Base{}, err
	}
	defer os.RemoveAll(dir)
	fmt.Fprintf(b.log, "base: making a Debian %s rootfs with mmdebstrap, inside the engine, from %s (SOURCE_DATE_EPOCH=%d)\n", BaseSuite, b.opts.Mirror, b.opts.SourceDateEpoch)
	start := time.Now()
	tarPath, err := b.bootstrapRootfs(ctx, dir)
	if err != nil {
		return Base{}, fmt.Errorf("making the Debian base image: %w", err)
	}
	// mmdebstrap's archive, exported from the engine: read once from one
	// descriptor, never through a link, a regular file of bounded size.
	f, err := hostfile.OpenPath(tarPath, rootfsCap)
	if err != nil {
		return Base{}, fmt.Errorf("making the Debian base image: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, hostfile.LimitReader(f, rootfsCap)); err != nil {
		return Base{}, fmt.Errorf("making the Debian base image: %w", err)
	}
	sum := hex.EncodeToString(h.Sum(nil))
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return Base{}, err
	}
	cfg := Config{
		Env: []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
		Cmd: []string{"bash"},
		Labels: map[string]string{
			labelRootfs: sum, labelMirror: b.opts.Mirror, LabelEpoch: b.epochString(),
		},
		Arch: b.arch(),
	}
	id, err := FromRootfs(ctx, b.eng, f, ref, b.opts.SourceDateEpoch, cfg)
	if err != nil {
		return Base{}, fmt.Errorf("making the Debian base image: %w", err)
	}
	img, ok, err := b.eng.Image(ctx, ref)
	if err != nil || !ok || img.ID != id {
		return Base{}, fmt.Errorf("making the Debian base image: %s is not there after loading it (found %v, id %s, want %s): %v", ref, ok, img.ID, id, err)
	}
	fmt.Fprintf(b.log, "base: %s made in %.1fs\n", ref, time.Since(start).Seconds())
	return Base{Ref: ref, ID: id, Origin: "mmdebstrap " + BaseSuite, RootfsSHA256: sum, layers: img.Layers, Provenance: provenance(OriginBuilt, CheckedBuild, "")}, nil
}
