package engine

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/docker/docker/api/types/container"
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

func (p Privilege) apply(hc *container.HostConfig) {
	unconfined := []string{"seccomp=unconfined", "apparmor=unconfined"}
	switch p.Mode {
	case ModePrivileged:
		hc.Privileged = true
		hc.SecurityOpt = unconfined
	case ModeAllCaps:
		hc.CapAdd = []string{"ALL"}
		hc.CapDrop = p.CapDrop
		hc.SecurityOpt = unconfined
	case ModeSysAdmin:
		hc.CapAdd = []string{"SYS_ADMIN"}
		hc.SecurityOpt = unconfined
	default:
		hc.SecurityOpt = []string{"no-new-privileges"}
	}
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

// ProbePrivilege starts `true` in img under each candidate until one starts,
// and returns it with the refusals met on the way.
func (e *Engine) ProbePrivilege(ctx context.Context, img, runID string, unprivileged bool) (Privilege, []Attempt, error) {
	var tried []Attempt
	for _, p := range Candidates(unprivileged) {
		err := e.tryStart(ctx, img, runID, p)
		if err == nil {
			return p, tried, nil
		}
		if ctx.Err() != nil {
			return Privilege{}, tried, ctx.Err()
		}
		tried = append(tried, Attempt{Privilege: p, Error: err.Error()})
	}
	return Privilege{}, tried, fmt.Errorf("no container could start from %s, even unprivileged: %s", img, tried[len(tried)-1].Error)
}

func (e *Engine) tryStart(ctx context.Context, img, runID string, p Privilege) error {
	_, err := e.probe(ctx, Spec{Image: img, Cmd: []string{"true"}, RunID: runID, Privilege: p})
	return err
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
