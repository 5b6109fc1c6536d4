package engine

import (
	"os"
	"strconv"
	"strings"
)

// Privilege is how much a run container may do. The design asks for
// privileged containers (the sampler mounts the memory cgroup to make one
// cgroup per sample); a host whose own capability set is smaller than "all"
// refuses --privileged, and then halebench takes the most it allows.
type Privilege struct {
	Mode    string   `json:"mode"` // privileged, all-caps, sys-admin, unprivileged
	CapDrop []string `json:"cap_drop,omitempty"`
}

// Modes, from most to least.
const (
	ModePrivileged   = "privileged"
	ModeAllCaps      = "all-caps"
	ModeSysAdmin     = "sys-admin"
	ModeUnprivileged = "unprivileged"
)

func (p Privilege) String() string {
	if len(p.CapDrop) > 0 {
		return p.Mode + " minus " + strings.Join(p.CapDrop, ",")
	}
	return p.Mode
}

// Candidates lists the privileges to try, most first. unprivileged alone is
// offered when the user asked for it.
func Candidates(unprivileged bool) []Privilege {
	if unprivileged {
		return []Privilege{{Mode: ModeUnprivileged}}
	}
	c := []Privilege{{Mode: ModePrivileged}}
	if missing := missingLocalCaps(); len(missing) > 0 {
		c = append(c, Privilege{Mode: ModeAllCaps, CapDrop: missing})
	}
	c = append(c,
		Privilege{Mode: ModeAllCaps, CapDrop: []string{"SYS_RESOURCE"}},
		Privilege{Mode: ModeSysAdmin},
		Privilege{Mode: ModeUnprivileged},
	)
	return c
}

// Attempt records one privilege tried and why it was refused.
type Attempt struct {
	Privilege Privilege `json:"privilege"`
	Error     string    `json:"error,omitempty"`
}

// capNames are the capability numbers the kernel defines, in order.
var capNames = []string{
	"CHOWN", "DAC_OVERRIDE", "DAC_READ_SEARCH", "FOWNER", "FSETID", "KILL", "SETGID", "SETUID",
	"SETPCAP", "LINUX_IMMUTABLE", "NET_BIND_SERVICE", "NET_BROADCAST", "NET_ADMIN", "NET_RAW",
	"IPC_LOCK", "IPC_OWNER", "SYS_MODULE", "SYS_RAWIO", "SYS_CHROOT", "SYS_PTRACE", "SYS_PACCT",
	"SYS_ADMIN", "SYS_BOOT", "SYS_NICE", "SYS_RESOURCE", "SYS_TIME", "SYS_TTY_CONFIG", "MKNOD",
	"LEASE", "AUDIT_WRITE", "AUDIT_CONTROL", "SETFCAP", "MAC_OVERRIDE", "MAC_ADMIN", "SYSLOG",
	"WAKE_ALARM", "BLOCK_SUSPEND", "AUDIT_READ", "PERFMON", "BPF", "CHECKPOINT_RESTORE",
}

// missingLocalCaps names the capabilities absent from this process's
// bounding set. When halebench runs on the engine's host as root, those are
// the ones the engine cannot grant either.
func missingLocalCaps() []string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return nil
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "CapBnd:"); ok {
			return MissingCaps(strings.TrimSpace(v))
		}
	}
	return nil
}

// MissingCaps lists the known capabilities whose bit is clear in a CapBnd
// hex mask.
func MissingCaps(hexMask string) []string {
	mask, err := strconv.ParseUint(hexMask, 16, 64)
	if err != nil {
		return nil
	}
	var out []string
	for i, name := range capNames {
		if mask&(1<<uint(i)) == 0 {
			out = append(out, name)
		}
	}
	return out
}
