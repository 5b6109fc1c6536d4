package session

import (
	"fmt"
	"os"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/image"
)

// Platform is the architecture a verb's images are of and, when that is
// not the engine's, why their programs' times are no measurement.
type Platform struct {
	Arch string // the images' (amd64, arm64)
	// Emulated says how the images' programs ran under an emulator ("":
	// natively); their times and memory peaks are then the emulator's.
	Emulated string
}

// PlatformOf is the platform of images of arch ("": the engine's own) on
// the engine host describes.
func PlatformOf(h engine.HostInfo, arch string) Platform {
	own := image.NormArch(h.Arch)
	if own == "" {
		own = image.ArchAMD64
	}
	if arch == "" {
		arch = own
	}
	p := Platform{Arch: arch}
	if arch == own {
		return p
	}
	p.Emulated = fmt.Sprintf("the images are %s and the engine's host %s: their programs ran under %s, so times and memory peaks are the emulator's, never gated; instruction counts are the guest's",
		arch, orUnknown(h.Arch), emulatorOf(h, arch))
	return p
}

// emulatorOf names the emulator binfmt_misc holds for arch on a local
// engine's host (what the kernel runs a foreign program with), or says
// what kind of thing it must be.
func emulatorOf(h engine.HostInfo, arch string) string {
	if strings.HasPrefix(h.EngineHost, "unix://") {
		if ip := binfmtInterpreter(binfmtName(arch)); ip != "" {
			return "the emulator registered in binfmt_misc (" + ip + ")"
		}
	}
	return "the host's emulator (QEMU's user-mode emulator or Rosetta, through binfmt_misc)"
}

func binfmtName(arch string) string {
	switch arch {
	case image.ArchARM64:
		return "qemu-aarch64"
	case image.ArchAMD64:
		return "qemu-x86_64"
	}
	return "qemu-" + arch
}

// binfmtInterpreter is the interpreter line of a binfmt_misc entry ("":
// none, or none readable). The entry is the kernel's: read bounded.
func binfmtInterpreter(name string) string {
	f, err := os.Open("/proc/sys/fs/binfmt_misc/" + name)
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 4096)
	n, _ := f.Read(buf)
	for _, l := range strings.Split(string(buf[:n]), "\n") {
		if ip, ok := strings.CutPrefix(l, "interpreter "); ok {
			return strings.TrimSpace(ip)
		}
	}
	return ""
}

func orUnknown(s string) string {
	if s == "" {
		return "of an unknown architecture"
	}
	return s
}
