//go:build linux

package main

// Confinement: the sampler keeps the container's privilege (it mounts the
// memory cgroup and moves processes between cgroups), the bench gets none of
// it. After the cgroup mount, the sampler
//
//   - makes itself non-dumpable, so /proc/1/{fd,environ,mem,…} belong to root
//     and a process of another uid cannot open them;
//   - empties its capability bounding set on every thread (what a later
//     execve could regain) and sets no_new_privs;
//   - installs, on every thread, a seccomp filter that the bench inherits
//     (see deniedSyscalls: mount and the new mount API, namespaces, keyrings,
//     bpf, ptrace and cross-process memory, modules, kexec, reboot, swap,
//     clocks, perf, io_uring; clone with a namespace flag; clone3, which a
//     filter cannot inspect, answers ENOSYS so libcs fall back to clone);
//
// and starts every bench as benchUID:benchGID with no supplementary groups:
// the switch away from uid 0 clears the permitted, effective and ambient
// capability sets. The filter is close to the engine's default profile in
// what it denies; it applies to the sampler too, which needs none of it after
// the mount.
//
// What the container gave and what the bench got are measured (the bench's
// by a probe run exactly as a bench is run) and reported in the environment.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
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
	dropUser bool // start benches as benchUID (false: the sampler cannot setuid)
	errs     []string
}

// confine drops what the sampler no longer needs and returns how benches
// are to be started. What could not be done is said, not fatal: the report
// shows what the bench got.
func confine() *confinement {
	c := &confinement{}
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
	for capNo := 0; capNo <= lastCap(); capNo++ {
		if _, _, e := syscall.AllThreadsSyscall(syscall.SYS_PRCTL, prCapbsetDrop, uintptr(capNo), 0); e != 0 {
			if e != syscall.EINVAL {
				c.errs = append(c.errs, fmt.Sprintf("dropping capability %d from the bounding set: %v", capNo, e))
			}
			break
		}
	}
	if _, _, e := syscall.AllThreadsSyscall(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0); e != 0 {
		c.errs = append(c.errs, "PR_SET_NO_NEW_PRIVS: "+e.Error())
	}
	if err := installFilter(); err != nil {
		c.errs = append(c.errs, "seccomp: "+err.Error())
	}
	c.dropUser = true
	return c
}

// sysProcAttr is how every bench process is started.
func (c *confinement) sysProcAttr() *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true}
	if c != nil && c.dropUser {
		a.Credential = &syscall.Credential{Uid: benchUID, Gid: benchGID, Groups: []uint32{}}
	}
	return a
}

// probeBench runs the probe as a bench would run and reads what it says.
// A sampler that cannot start a process as benchUID starts benches as
// itself, and says so.
func (c *confinement) probeBench() (*wire.Privileges, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	run := func() ([]byte, error) {
		cmd := exec.Command(self, "probe")
		cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin"}
		cmd.SysProcAttr = c.sysProcAttr()
		return cmd.Output()
	}
	out, err := run()
	if err != nil && c.dropUser {
		c.errs = append(c.errs, fmt.Sprintf("starting a process as %d:%d: %v (benches run as the sampler's user)", benchUID, benchGID, err))
		c.dropUser = false
		out, err = run()
	}
	if err != nil {
		return nil, err
	}
	var p wire.Privileges
	if err := json.Unmarshal(out, &p); err != nil {
		return nil, fmt.Errorf("probe said %q: %w", out, err)
	}
	if filter() != nil {
		p.Filter = fmt.Sprintf("halebench seccomp filter: %d syscalls denied, clone with namespace flags denied, clone3 ENOSYS", len(filter().deny))
	}
	return &p, nil
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
