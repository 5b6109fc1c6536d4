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

	"github.com/hale-lang/halebench/orchestrator/repro"
)

// BaseSuite is the Debian release every toolchain image starts from.
const BaseSuite = "trixie"

// DefaultMirror is where mmdebstrap fetches Debian's packages.
const DefaultMirror = "http://deb.debian.org/debian"

const labelRootfs = "org.halebench.base.rootfs-sha256"

// Base is the image every toolchain image is built FROM.
type Base struct {
	Ref          string  `json:"reference"`
	ID           string  `json:"id"`
	Origin       string  `json:"origin"` // how it was made: mmdebstrap, or given by the user
	RootfsSHA256 string  `json:"rootfs_sha256,omitempty"`
	Inputs       *Inputs `json:"inputs,omitempty"`
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
	ref := b.opts.Prefix + "/base:" + BaseSuite + "-" + b.epochString()
	in := &Inputs{Builder: "mmdebstrap --variant=minbase --include=ca-certificates " + BaseSuite + " " + b.opts.Mirror + "; " + builderName(), SourceDateEpoch: b.opts.SourceDateEpoch}
	if img, ok, err := b.eng.Image(ctx, ref); err != nil {
		return Base{}, err
	} else if ok && !b.opts.NoCache {
		in.Packages, err = b.packages(ctx, ref)
		return Base{Ref: ref, ID: img.ID, Origin: "mmdebstrap " + BaseSuite, RootfsSHA256: img.Labels[labelRootfs], Inputs: in}, err
	}
	if b.opts.NoBuild {
		return Base{}, fmt.Errorf("base image %s does not exist and --no-build was given; run without --no-build (or `halebench images`) once", ref)
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
	fmt.Fprintf(b.log, "base: making a Debian %s rootfs with mmdebstrap from %s (SOURCE_DATE_EPOCH=%d)\n", BaseSuite, b.opts.Mirror, b.opts.SourceDateEpoch)
	start := time.Now()
	cmd := exec.CommandContext(ctx, mm, "--variant=minbase", "--include=ca-certificates", "--quiet", BaseSuite, tarPath, b.opts.Mirror)
	// mmdebstrap makes the same tarball from the same packages given the epoch.
	cmd.Env = append(os.Environ(), "SOURCE_DATE_EPOCH="+b.epochString())
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
	cfg := repro.Config{
		Env: []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
		Cmd: []string{"bash"},
		Labels: map[string]string{
			labelRootfs:                 sum,
			"org.halebench.base.mirror": b.opts.Mirror,
			repro.LabelEpoch:            b.epochString(),
		},
	}
	id, err := repro.FromRootfs(ctx, b.eng, f, ref, b.opts.SourceDateEpoch, cfg)
	if err != nil {
		return Base{}, fmt.Errorf("making the Debian base image: %w", err)
	}
	if in.Packages, err = b.packages(ctx, ref); err != nil {
		return Base{}, err
	}
	fmt.Fprintf(b.log, "base: %s made in %.1fs\n", ref, time.Since(start).Seconds())
	return Base{Ref: ref, ID: id, Origin: "mmdebstrap " + BaseSuite, RootfsSHA256: sum, Inputs: in}, nil
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
