package image

import (
	"fmt"
	"strings"
)

// The architectures halebench makes images for, by Go's names (Docker's
// image configs use the same): the one every figure so far was taken on,
// and the other Hale ships.
const (
	ArchAMD64 = "amd64"
	ArchARM64 = "arm64"
)

// Arches are the architectures an image set can be made for.
var Arches = []string{ArchAMD64, ArchARM64}

// NormArch maps an architecture as an engine or uname names it (x86_64,
// aarch64) onto Go's name; "" stays "" (not known).
func NormArch(a string) string {
	switch strings.ToLower(strings.TrimSpace(a)) {
	case "x86_64", "x86-64", "amd64":
		return ArchAMD64
	case "aarch64", "arm64", "armv8", "arm64/v8":
		return ArchARM64
	case "":
		return ""
	}
	return strings.ToLower(strings.TrimSpace(a))
}

// ParsePlatform reads --platform (linux/amd64, linux/arm64, or the
// architecture alone) into an architecture; "" is "" (the engine's own).
func ParsePlatform(p string) (string, error) {
	p = strings.TrimSpace(p)
	if p == "" {
		return "", nil
	}
	a := strings.TrimPrefix(strings.ToLower(p), "linux/")
	if strings.Contains(a, "/") {
		return "", fmt.Errorf("--platform=%s: halebench makes linux images of one architecture: give linux/amd64 or linux/arm64", p)
	}
	switch n := NormArch(a); n {
	case ArchAMD64, ArchARM64:
		return n, nil
	}
	return "", fmt.Errorf("--platform=%s is not one halebench makes images for: give linux/amd64 or linux/arm64", p)
}

// arch is the architecture of the images this builder makes.
func (b *Builder) arch() string {
	if b.opts.Arch != "" {
		return b.opts.Arch
	}
	return b.engineArch()
}

// engineArch is the engine's own architecture (amd64 when not known).
func (b *Builder) engineArch() string {
	if a := NormArch(b.opts.EngineArch); a != "" {
		return a
	}
	return ArchAMD64
}

// Foreign says whether the images are of another architecture than the
// engine's: their programs run under the host's emulator.
func (b *Builder) Foreign() bool { return b.arch() != b.engineArch() }

// Arch is the architecture of the images this builder makes.
func (b *Builder) Arch() string { return b.arch() }

// platform is a build's platform: "" (the engine's own, as every build
// was before architectures were named) unless the images are foreign.
func (b *Builder) platform() string {
	if !b.Foreign() {
		return ""
	}
	return "linux/" + b.arch()
}

// archTag is what an image's tag ends with: nothing for amd64 (the tags
// every image had before architectures were named), "-arm64" for arm64, so
// that an arm64 set never takes an amd64 set's tags.
func archTag(arch string) string {
	if arch == "" || arch == ArchAMD64 {
		return ""
	}
	return "-" + arch
}

// debArch is Debian's name of an architecture (the same as Go's for the
// two halebench makes).
func debArch(arch string) string { return arch }

// archWhy says why a found image of architecture got is not of want ("": it is).
func archWhy(got, want string) string {
	if got == "" || want == "" || NormArch(got) == want {
		return ""
	}
	return fmt.Sprintf("it is a %s image, this build's are %s", got, want)
}
