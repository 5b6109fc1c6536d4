package image

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// bootPackages is what the bootstrap image holds besides Debian's
// Essential set: the bootstrapper, whose dependencies come along.
var bootPackages = []string{"mmdebstrap"}

// bootstrapDockerfile runs mmdebstrap as the build container's own root,
// from the bootstrap image, and hands its tarball out as the only file of
// the result. No mount is made (a build step may not mount), the chroot
// lives in a tmpfs (dpkg's many small writes are slow on the engine's
// overlay) and dpkg skips its fsyncs there; none of this changes the
// tarball, which mmdebstrap writes from the packages and the epoch alone.
const bootstrapTemplate = `ARG BOOT
FROM ${BOOT} AS boot
ARG SOURCE_DATE_EPOCH
ARG SUITE
ARG MIRROR
RUN --mount=type=tmpfs,target=/tmp mkdir -p /out \
 && mmdebstrap --mode=root --skip=chroot/mount --dpkgopt=force-unsafe-io \
      --variant=minbase --include=ca-certificates --quiet ARCHOPTS"$SUITE" /out/rootfs.tar "$MIRROR"
FROM scratch
COPY --from=boot /out/rootfs.tar /rootfs.tar
`

// bootstrapRootfs makes the base's root filesystem tarball inside the
// engine and returns its path under dir: no host tool and no host root is
// needed, only the engine and the Debian mirror.
//
// A foreign base (another architecture than the engine's) is made by the
// engine's own bootstrap image with mmdebstrap --arch: its maintainer
// scripts run under the host's emulator, registered in binfmt_misc with
// the fix-binary flag (F) so that the kernel, not the chroot, holds the
// emulator; mmdebstrap's own check for one (arch-test, and binfmt_misc
// mounted in the build container, which it is not) is skipped, and a
// missing emulator fails the first maintainer script instead, which the
// error then names.
func bootstrapDockerfile(arch string, foreign bool) string {
	opts := ""
	if foreign {
		opts = "--arch=" + debArch(arch) + " --skip=check/qemu "
	}
	return strings.Replace(bootstrapTemplate, "ARCHOPTS", opts, 1)
}

func (b *Builder) bootstrapRootfs(ctx context.Context, dir string) (string, error) {
	boot := b.opts.Prefix + "/debroot:" + BaseSuite + "-" + b.epochString() + archTag(b.engineArch())
	if err := b.bootImage(ctx, dir, boot); err != nil {
		return "", fmt.Errorf("making the bootstrap image: %w", err)
	}
	df := filepath.Join(dir, "df")
	out := filepath.Join(dir, "out")
	for _, d := range []string{df, out} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return "", err
		}
	}
	if err := os.WriteFile(filepath.Join(df, "Dockerfile"), []byte(bootstrapDockerfile(b.arch(), b.Foreign())), 0o644); err != nil {
		return "", err
	}
	args := map[string]string{"BOOT": boot, "SOURCE_DATE_EPOCH": b.epochString(), "SUITE": BaseSuite, "MIRROR": b.opts.Mirror}
	sv := b.sv
	if b.native != nil {
		sv = b.native.sv // the bootstrap image is the engine's own
	}
	if _, err := sv.solve(ctx, df, df, args, b.opts.NoCache, exportLocal(out), "base"); err != nil {
		if b.Foreign() {
			return "", fmt.Errorf("running mmdebstrap --arch=%s in the engine (its maintainer scripts need the host's emulator for %s: QEMU's user-mode emulator registered in /proc/sys/fs/binfmt_misc with the F flag; see the README's other architectures): %w", b.arch(), b.arch(), err)
		}
		return "", fmt.Errorf("running mmdebstrap in the engine: %w", err)
	}
	return filepath.Join(out, "rootfs.tar"), nil
}

// bootImage assembles, as this user, a root filesystem just able to run
// mmdebstrap from the mirror's packages (checked against the suite's
// InRelease) and loads it as ref.
func (b *Builder) bootImage(ctx context.Context, dir, ref string) error {
	start := time.Now()
	src := DebrootSource{Mirror: b.opts.Mirror, Suite: BaseSuite, Arch: debArch(b.engineArch())}
	idx, err := src.Index(ctx)
	if err != nil {
		return err
	}
	pkgs, err := idx.Closure(bootPackages)
	if err != nil {
		return err
	}
	debs := filepath.Join(dir, "debs")
	if err := os.Mkdir(debs, 0o755); err != nil {
		return err
	}
	paths, err := src.Download(ctx, pkgs, debs)
	if err != nil {
		return err
	}
	tarPath := filepath.Join(dir, "boot.tar")
	f, err := os.Create(tarPath)
	if err != nil {
		return err
	}
	defer f.Close()
	at := time.Unix(b.opts.SourceDateEpoch, 0).UTC()
	if err := Write(f, paths, at); err != nil {
		return err
	}
	if _, err := f.Seek(0, 0); err != nil {
		return err
	}
	cfg := Config{
		Env:       []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
		Cmd:       []string{"sh"},
		Labels:    map[string]string{LabelEpoch: b.epochString()},
		CreatedBy: "halebench: root filesystem unpacked from Debian's packages (package debroot)",
		Arch:      b.engineArch(),
	}
	if _, err := FromRootfs(ctx, b.eng, f, ref, b.opts.SourceDateEpoch, cfg); err != nil {
		return err
	}
	_ = os.RemoveAll(debs)
	fmt.Fprintf(b.log, "base: bootstrap image %s (%d packages) made in %.1fs\n", ref, len(pkgs), time.Since(start).Seconds())
	return nil
}
