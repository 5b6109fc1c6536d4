//go:build linux

package main

// No device node, setuid/setgid bit or file capability from an image
// reaches a bench. An image's content (a given --base-image, a toolchain a
// compiler under test built as root in BuildKit, where mknod is allowed)
// can hold a 0666 node; on a host that grants --privileged every device is
// allowed, so such a node would open the host's disk to every bench. Before
// its first sample, while it still holds CAP_SYS_ADMIN and before the
// seccomp filter denies mount, the sampler remounts every mount of image
// content (all but /proc, /sys and /dev, which the engine makes) nodev and
// nosuid (nosuid also voids file capabilities), keeping its other flags,
// and checks that each now has both. Where it cannot (--unprivileged: no
// CAP_SYS_ADMIN, and the engine's default device rules), it walks the
// mounts it could not seal for device nodes and, finding one, runs no
// bench (every job answers unconfined, naming the node). Setuid bits and
// capabilities are inert there already: every bench runs with
// no_new_privs.

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
)

// mountEntry is one line of /proc/self/mountinfo: where, and its
// per-mount options.
type mountEntry struct {
	point  string
	opts   map[string]bool
	fstype string
}

// readMounts reads /proc/self/mountinfo.
func readMounts() ([]mountEntry, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []mountEntry
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 {
			continue
		}
		m := mountEntry{point: unescapeMount(fields[4]), opts: map[string]bool{}}
		for _, o := range strings.Split(fields[5], ",") {
			m.opts[o] = true
		}
		for i := 6; i+1 < len(fields); i++ { // optional fields, then "-", then the type
			if fields[i] == "-" {
				m.fstype = fields[i+1]
				break
			}
		}
		out = append(out, m)
	}
	return out, sc.Err()
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			var v int
			if _, err := fmt.Sscanf(s[i+1:i+4], "%03o", &v); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// engineMade says whether a mount point is one the engine or the kernel
// fills (never image content): /proc, /sys, /dev and below.
func engineMade(point string) bool {
	for _, p := range []string{"/proc", "/sys", "/dev"} {
		if point == p || strings.HasPrefix(point, p+"/") {
			return true
		}
	}
	return false
}

// engineDev are the mounts the engine makes below /dev, each by its
// filesystem type: nothing else there is the engine's. An image VOLUME
// under /dev is a bind of a volume Docker filled from the image (device
// nodes included), so a mount is trusted for what it is, not for where
// it is mounted.
var engineDev = map[string]string{"/dev": "tmpfs", "/dev/pts": "devpts", "/dev/mqueue": "mqueue", "/dev/shm": "tmpfs"}

// engineMount says whether a mount is one the engine or the kernel made:
// below /proc and /sys, and below /dev only engineDev's.
func engineMount(m mountEntry) bool {
	if m.point == "/dev" || strings.HasPrefix(m.point, "/dev/") {
		return engineDev[m.point] != "" && engineDev[m.point] == m.fstype
	}
	return engineMade(m.point)
}

// mountFlags are a mount's per-mount flags from its options, for a bind
// remount that must keep them.
func mountFlags(opts map[string]bool) uintptr {
	var fl uintptr
	for o, f := range map[string]uintptr{"ro": syscall.MS_RDONLY, "noexec": syscall.MS_NOEXEC, "noatime": syscall.MS_NOATIME,
		"nodiratime": syscall.MS_NODIRATIME, "relatime": syscall.MS_RELATIME, "strictatime": syscall.MS_STRICTATIME} {
		if opts[o] {
			fl |= f
		}
	}
	return fl
}

// sealMounts remounts every mount of image content nodev and nosuid and
// returns those it could not seal, each with why.
func sealMounts() (unsealed []string, why []string, err error) {
	mounts, err := readMounts()
	if err != nil {
		return nil, nil, fmt.Errorf("reading the mount table: %w", err)
	}
	for _, m := range mounts {
		if engineMount(m) || m.opts["nodev"] && m.opts["nosuid"] {
			continue
		}
		fl := syscall.MS_REMOUNT | syscall.MS_BIND | syscall.MS_NODEV | syscall.MS_NOSUID | mountFlags(m.opts)
		if e := syscall.Mount("", m.point, "", fl, ""); e != nil {
			why = append(why, fmt.Sprintf("%s: %v", m.point, e))
		}
	}
	after, err := readMounts()
	if err != nil {
		return nil, nil, fmt.Errorf("reading the mount table: %w", err)
	}
	for _, m := range after {
		if !engineMount(m) && !(m.opts["nodev"] && m.opts["nosuid"]) {
			unsealed = append(unsealed, m.point)
		}
	}
	return unsealed, why, nil
}

// imageNodes walks the unsealed mounts (not below /proc, /sys, /dev or a
// sealed mount) for device nodes, at most a few named.
func imageNodes(unsealed []string) []string {
	skip := map[string]bool{}
	if mounts, err := readMounts(); err == nil {
		for _, m := range mounts {
			if engineMount(m) || m.opts["nodev"] {
				skip[m.point] = true
			}
		}
	}
	var found []string
	for _, root := range unsealed {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			switch {
			case err != nil:
				return nil
			case d.IsDir() && p != root && (skip[p] || engineMade(p) && !strings.HasPrefix(p, root+"/")):
				return fs.SkipDir
			case d.Type()&fs.ModeDevice != 0:
				found = append(found, nodeName(p))
			}
			if len(found) >= 5 {
				return fs.SkipAll
			}
			return nil
		})
	}
	sort.Strings(found)
	return found
}

func nodeName(p string) string {
	var st syscall.Stat_t
	if syscall.Lstat(p, &st) != nil {
		return p
	}
	kind := "block"
	if st.Mode&syscall.S_IFMT == syscall.S_IFCHR {
		kind = "char"
	}
	dev := uint64(st.Rdev)
	major := (dev>>8)&0xfff | (dev>>32)&^0xfff
	minor := dev&0xff | (dev>>12)&^0xff
	return fmt.Sprintf("%s (%s %d:%d, mode %04o)", p, kind, major, minor, st.Mode&0o7777)
}

// keepImageNodesAway seals the image's mounts or, where that cannot be
// done, makes sure no device node is in them. notes are what could not be
// done (reported); unsafe, when set, stops every bench.
func keepImageNodesAway() (notes []string, unsafe string) {
	unsealed, why, err := sealMounts()
	if err != nil {
		return nil, "the image's mounts could not be checked for device nodes: " + err.Error()
	}
	if len(unsealed) == 0 {
		return nil, ""
	}
	notes = append(notes, "not remounted nodev,nosuid: "+strings.Join(why, "; ")+" (no device node was found in them)")
	if nodes := imageNodes(unsealed); len(nodes) > 0 {
		return nil, fmt.Sprintf("the image holds device nodes a bench could open (%s) and its mounts could not be remounted nodev (%s): no bench runs; rebuild the image without them",
			strings.Join(nodes, ", "), strings.Join(why, "; "))
	}
	return notes, ""
}
