package imagebuild

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// BaseSuite is the Debian release every toolchain image starts from.
const BaseSuite = "trixie"

// DefaultMirror is where mmdebstrap fetches Debian's packages.
const DefaultMirror = "http://deb.debian.org/debian"

const labelRootfs = "org.halebench.base.rootfs-sha256"

// Base is the image every toolchain image is built FROM.
type Base struct {
	Ref          string `json:"reference"`
	ID           string `json:"id"`
	Origin       string `json:"origin"` // how it was made: mmdebstrap, or given by the user
	RootfsSHA256 string `json:"rootfs_sha256,omitempty"`
}

// base returns the base image, making it when it is missing.
func (b *Builder) makeBase(ctx context.Context) (Base, error) {
	if b.opts.BaseImage != "" {
		img, ok, err := b.eng.Image(ctx, b.opts.BaseImage)
		if err != nil {
			return Base{}, err
		}
		origin := "given with --base-image"
		if !ok {
			// Where a registry answers, a reference pinned by digest is pulled.
			if perr := b.eng.Pull(ctx, b.opts.BaseImage); perr != nil {
				return Base{}, fmt.Errorf("base image %s is not in the engine's image store and could not be pulled (%v): load it first, or drop --base-image to let halebench make one with mmdebstrap", b.opts.BaseImage, perr)
			}
			if img, ok, err = b.eng.Image(ctx, b.opts.BaseImage); err != nil || !ok {
				return Base{}, fmt.Errorf("base image %s missing after the pull: %v", b.opts.BaseImage, err)
			}
			origin = "pulled with --base-image"
		}
		return Base{Ref: b.opts.BaseImage, ID: img.ID, Origin: origin}, nil
	}
	ref := "halebench/base:" + BaseSuite
	if img, ok, err := b.eng.Image(ctx, ref); err != nil {
		return Base{}, err
	} else if ok {
		return Base{Ref: ref, ID: img.ID, Origin: "mmdebstrap " + BaseSuite, RootfsSHA256: img.Labels[labelRootfs]}, nil
	}
	mm, err := exec.LookPath("mmdebstrap")
	if err != nil {
		return Base{}, fmt.Errorf("making the Debian base image: mmdebstrap not found on this host (no registry is used, so the base is made from Debian's packages): install it with `apt-get install mmdebstrap`, or give --base-image=REF of a local Debian %s image", BaseSuite)
	}
	dir, err := os.MkdirTemp("", "halebench-base-")
	if err != nil {
		return Base{}, err
	}
	defer os.RemoveAll(dir)
	tarPath := filepath.Join(dir, "rootfs.tar")
	fmt.Fprintf(b.log, "base: making a Debian %s rootfs with mmdebstrap from %s\n", BaseSuite, b.opts.Mirror)
	start := time.Now()
	cmd := exec.CommandContext(ctx, mm, "--variant=minbase", "--include=ca-certificates", "--quiet", BaseSuite, tarPath, b.opts.Mirror)
	// A fixed epoch keeps the tarball's timestamps stable between makings.
	cmd.Env = append(os.Environ(), "SOURCE_DATE_EPOCH=1735689600")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return Base{}, fmt.Errorf("making the Debian base image: mmdebstrap %s: %w\n%s", BaseSuite, err, indent(string(out)))
	}
	sum, err := fileSHA256(tarPath)
	if err != nil {
		return Base{}, err
	}
	f, err := os.Open(tarPath)
	if err != nil {
		return Base{}, err
	}
	defer f.Close()
	changes := []string{
		"ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"LABEL " + labelRootfs + "=" + sum,
		"LABEL org.halebench.base.mirror=" + b.opts.Mirror,
		`CMD ["bash"]`,
	}
	if err := b.eng.Import(ctx, f, ref, changes); err != nil {
		return Base{}, fmt.Errorf("making the Debian base image: %w", err)
	}
	img, ok, err := b.eng.Image(ctx, ref)
	if err != nil || !ok {
		return Base{}, fmt.Errorf("making the Debian base image: %s missing after import: %v", ref, err)
	}
	fmt.Fprintf(b.log, "base: %s made in %.1fs\n", ref, time.Since(start).Seconds())
	return Base{Ref: ref, ID: img.ID, Origin: "mmdebstrap " + BaseSuite, RootfsSHA256: sum}, nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
