//go:build linux

package main

// Confinement: the sampler keeps the container's privilege (it mounts the
// memory cgroup and moves processes between cgroups), the bench gets none of
// it. After the cgroup mount, the sampler
//
//   - makes itself non-dumpable, so /proc/1/{fd,environ,mem,…} belong to root
//     and a process of another uid cannot open them;
//   - turns core dumps off (RLIMIT_CORE 0, soft and hard);
//   - empties its capability bounding set on every thread (what a later
//     execve could regain) and sets no_new_privs;
//   - installs, on every thread, a seccomp filter that the bench inherits
//     (seccomp.go: mount and the new mount API, namespaces, keyrings, bpf,
//     ptrace and cross-process memory, modules, kexec, reboot, swap, clocks,
//     perf, io_uring; clone with a namespace flag; clone3, which a filter
//     cannot inspect, answers ENOSYS so libcs fall back to clone; sockets of
//     any family but unix, inet and inet6; personality beyond the query and
//     ADDR_NO_RANDOMIZE);
//
// and starts every bench as benchUID:benchGID with no supplementary groups:
// the switch away from uid 0 clears the permitted, effective and ambient
// capability sets. The filter is close to the engine's default profile in
// what it denies; it applies to the sampler too, which needs none of it after
// the mount.
//
// What the container gave and what the bench got are measured (the bench's
// by a probe run exactly as a bench is run) and reported in the environment.
// It fails closed: what leaves a bench holding more than that (no filter, a
// failed uid switch or capability drop, core dumps on, or a probe that
// finds any right left) stops every bench of the session (status
// unconfined).

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"syscall"

	"github.com/hale-lang/halebench/images/sampler/wire"
)

// The bench's identity: nobody:nogroup, which owns no file of the image.
const (
	benchUID = 65534
	benchGID = 65534
)

func ownPrivileges() wire.Privileges {
	var p wire.Privileges
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return p
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		v = strings.TrimSpace(v)
		switch k {
		case "Uid":
			p.UID = strings.Join(strings.Fields(v), ",")
		case "Gid":
			p.GID = strings.Join(strings.Fields(v), ",")
		case "CapEff":
			p.CapEff = v
		case "CapPrm":
			p.CapPrm = v
		case "CapBnd":
			p.CapBnd = v
		case "CapAmb":
			p.CapAmb = v
		case "NoNewPrivs":
			p.NoNewPrivs = v
		case "Seccomp":
			p.Seccomp = v
		case "Speculation_Store_Bypass":
			p.SpecStoreBypass = v
		}
	}
	return p
}

// probe is what `halebench-sampler probe` prints: its own privileges, run
// the way a bench runs.
func probe() {
	p := ownPrivileges()
	if f, err := os.Open("/proc/1/fd"); err != nil {
		p.PID1FDs = "denied: " + err.Error()
	} else {
		f.Close()
		p.PID1FDs = "readable"
	}
	b, _ := json.Marshal(p)
	fmt.Println(string(b))
}

// confinement is how the sampler starts benches.
type confinement struct {
	uid, gid uint32 // the bench's identity
	// errs: what could not be done, said in the report. unsafe: what could
	// not be done and leaves a bench unconfined: then no bench runs.
	errs   []string
	unsafe []string
}

// confine drops what the sampler no longer needs and returns how benches
// are to be started as uid:gid. It fails closed: no seccomp filter, no
// no_new_privs, a bounding set that could not be emptied or core dumps
// left on put the failure in unsafe, and the session runs no bench.
func confine(uid, gid uint32) *confinement {
	c := &confinement{uid: uid, gid: gid}
	const prSetDumpable, prCapbsetDrop, prSetChildSubreaper, prSetNoNewPrivs = 4, 24, 36, 38
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetDumpable, 0, 0); e != 0 {
		c.errs = append(c.errs, "PR_SET_DUMPABLE: "+e.Error())
	}
	// Not PID 1 (an init in front of it): orphans still come to us.
	if os.Getpid() != 1 {
		if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, prSetChildSubreaper, 1, 0); e != 0 {
			c.errs = append(c.errs, "PR_SET_CHILD_SUBREAPER: "+e.Error())
		}
	}
	// No core file: a crashing bench writes nothing a later one could read.
	if err := syscall.Setrlimit(syscall.RLIMIT_CORE, &syscall.Rlimit{}); err != nil {
		c.unsafe = append(c.unsafe, "turning core dumps off (RLIMIT_CORE 0): "+err.Error())
	}
	for capNo := 0; capNo <= lastCap(); capNo++ {
		if _, _, e := syscall.AllThreadsSyscall(syscall.SYS_PRCTL, prCapbsetDrop, uintptr(capNo), 0); e != 0 {
			if e != syscall.EINVAL {
				c.unsafe = append(c.unsafe, fmt.Sprintf("dropping capability %d from the bounding set: %v", capNo, e))
			}
			break
		}
	}
	if _, _, e := syscall.AllThreadsSyscall(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0); e != 0 {
		c.unsafe = append(c.unsafe, "PR_SET_NO_NEW_PRIVS: "+e.Error())
	}
	if err := installFilter(); err != nil {
		c.unsafe = append(c.unsafe, "seccomp: "+err.Error())
	}
	return c
}

// sysProcAttr is how every bench process is started: in a process group of
// its own, as the bench's uid and gid with no supplementary group.
func (c *confinement) sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true,
		Credential: &syscall.Credential{Uid: c.uid, Gid: c.gid, Groups: []uint32{}}}
}

// probeBench runs the probe as a bench would run and reads what it says.
// A probe that cannot start (the uid switch failed) or that finds any
// right left puts the reason in unsafe: benches do not run.
func (c *confinement) probeBench() *wire.Privileges {
	self, err := os.Executable()
	if err != nil {
		c.unsafe = append(c.unsafe, "finding the sampler's own binary for the probe: "+err.Error())
		return nil
	}
	cmd := exec.Command(self, "probe")
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin"}
	cmd.SysProcAttr = c.sysProcAttr()
	out, err := cmd.Output()
	if err != nil {
		c.unsafe = append(c.unsafe, fmt.Sprintf("starting a process as %d:%d: %v", c.uid, c.gid, err))
		return nil
	}
	var p wire.Privileges
	if err := json.Unmarshal(out, &p); err != nil {
		c.unsafe = append(c.unsafe, fmt.Sprintf("probe said %q: %v", out, err))
		return nil
	}
	if t := filter(); t != nil {
		p.Filter = fmt.Sprintf("halebench seccomp filter: %d syscalls denied, clone with namespace flags denied, clone3 ENOSYS, "+
			"socket families but unix/inet/inet6 EAFNOSUPPORT, personality limited to query and ADDR_NO_RANDOMIZE", len(t.deny))
	}
	c.unsafe = append(c.unsafe, c.check(p)...)
	return &p
}

// check lists what the probe found a bench still holds.
func (c *confinement) check(p wire.Privileges) []string {
	var bad []string
	if uid := strings.Fields(strings.ReplaceAll(p.UID, ",", " ")); len(uid) == 0 || uid[0] != strconv.FormatUint(uint64(c.uid), 10) {
		bad = append(bad, fmt.Sprintf("a bench runs as uid %q, not %d", p.UID, c.uid))
	}
	for name, v := range map[string]string{"CapEff": p.CapEff, "CapPrm": p.CapPrm, "CapBnd": p.CapBnd, "CapAmb": p.CapAmb} {
		if strings.Trim(v, "0") != "" {
			bad = append(bad, fmt.Sprintf("a bench holds capabilities (%s %s)", name, v))
		}
	}
	if p.NoNewPrivs != "1" || p.Seccomp != "2" {
		bad = append(bad, fmt.Sprintf("a bench runs with no_new_privs %q and seccomp mode %q, want 1 and 2 (filter)", p.NoNewPrivs, p.Seccomp))
	}
	if !strings.HasPrefix(p.PID1FDs, "denied") {
		bad = append(bad, "a bench can open the sampler's descriptors (/proc/1/fd)")
	}
	sort.Strings(bad)
	return bad
}

func lastCap() int {
	b, err := os.ReadFile("/proc/sys/kernel/cap_last_cap")
	if err != nil {
		return 40
	}
	n, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		return 40
	}
	return n
}
