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
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"unsafe"
)

// The bench's identity: nobody:nogroup, which owns no file of the image.
const (
	benchUID = 65534
	benchGID = 65534
)

// privileges is one process's view of its own rights, from /proc/self/status.
type privileges struct {
	UID        string `json:"uid"`
	GID        string `json:"gid"`
	CapEff     string `json:"cap_eff"`
	CapPrm     string `json:"cap_prm"`
	CapBnd     string `json:"cap_bnd"`
	CapAmb     string `json:"cap_amb"`
	NoNewPrivs string `json:"no_new_privs"`
	Seccomp    string `json:"seccomp"` // 0 none, 1 strict, 2 filter
	// "thread force mitigated" would mean a slower bench than without
	// halebench's filter.
	SpecStoreBypass string `json:"spec_store_bypass,omitempty"`
	// For the bench only: whether it could open PID 1's descriptors.
	PID1FDs string `json:"pid1_fds,omitempty"`
	Filter  string `json:"filter,omitempty"`
}

func ownPrivileges() privileges {
	var p privileges
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
func (c *confinement) probeBench() (*privileges, error) {
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
	var p privileges
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

// syscallTable is one architecture's numbers.
type syscallTable struct {
	auditArch uint32
	seccompNr uintptr
	clone     uint32
	clone3    uint32
	x32Bit    bool // amd64: numbers with bit 30 set are the x32 ABI
	deny      []sysEntry
}

// The numbers from 424 up are the same on every architecture.
var commonDeny = []sysEntry{
	{"io_uring_setup", 425}, {"io_uring_enter", 426}, {"io_uring_register", 427},
	{"open_tree", 428}, {"move_mount", 429}, {"fsopen", 430}, {"fsconfig", 431}, {"fsmount", 432}, {"fspick", 433},
	{"mount_setattr", 442},
}

// sysEntry is one denied syscall.
type sysEntry struct {
	name string
	nr   uint32
}

func filter() *syscallTable { return tableFor(runtime.GOARCH) }

func tableFor(arch string) *syscallTable {
	switch arch {
	case "amd64":
		return &syscallTable{auditArch: 0xc000003e, seccompNr: 317, clone: 56, clone3: 435, x32Bit: true,
			deny: append([]sysEntry{
				{"mount", 165}, {"umount2", 166}, {"pivot_root", 155},
				{"unshare", 272}, {"setns", 308},
				{"keyctl", 250}, {"add_key", 248}, {"request_key", 249},
				{"bpf", 321}, {"perf_event_open", 298},
				{"ptrace", 101}, {"process_vm_readv", 310}, {"process_vm_writev", 311}, {"kcmp", 312},
				{"init_module", 175}, {"finit_module", 313}, {"delete_module", 176}, {"create_module", 174}, {"get_kernel_syms", 177}, {"query_module", 178},
				{"kexec_load", 246}, {"kexec_file_load", 320}, {"reboot", 169},
				{"swapon", 167}, {"swapoff", 168}, {"acct", 163}, {"quotactl", 179},
				{"open_by_handle_at", 304}, {"name_to_handle_at", 303},
				{"settimeofday", 164}, {"clock_settime", 227}, {"adjtimex", 159}, {"clock_adjtime", 305},
				{"syslog", 103}, {"vhangup", 153}, {"iopl", 172}, {"ioperm", 173}, {"uselib", 134}, {"_sysctl", 156}, {"nfsservctl", 180}, {"lookup_dcookie", 212}, {"userfaultfd", 323},
			}, commonDeny...)}
	case "arm64":
		return &syscallTable{auditArch: 0xc00000b7, seccompNr: 277, clone: 220, clone3: 435,
			deny: append([]sysEntry{
				{"mount", 40}, {"umount2", 39}, {"pivot_root", 41},
				{"unshare", 97}, {"setns", 268},
				{"keyctl", 219}, {"add_key", 217}, {"request_key", 218},
				{"bpf", 280}, {"perf_event_open", 241},
				{"ptrace", 117}, {"process_vm_readv", 270}, {"process_vm_writev", 271}, {"kcmp", 272},
				{"init_module", 105}, {"finit_module", 273}, {"delete_module", 106},
				{"kexec_load", 104}, {"kexec_file_load", 294}, {"reboot", 142},
				{"swapon", 224}, {"swapoff", 225}, {"acct", 89}, {"quotactl", 60},
				{"open_by_handle_at", 265}, {"name_to_handle_at", 264},
				{"settimeofday", 170}, {"clock_settime", 112}, {"adjtimex", 171}, {"clock_adjtime", 266},
				{"syslog", 116}, {"vhangup", 58}, {"lookup_dcookie", 18}, {"userfaultfd", 282},
			}, commonDeny...)}
	}
	return nil
}

// Namespace flags of clone(2): CLONE_NEWNS, NEWCGROUP, NEWUTS, NEWIPC,
// NEWUSER, NEWPID, NEWNET.
const cloneNSFlags = 0x00020000 | 0x02000000 | 0x04000000 | 0x08000000 | 0x10000000 | 0x20000000 | 0x40000000

type sockFilter struct {
	code   uint16
	jt, jf uint8
	k      uint32
}

type sockFprog struct {
	n      uint16
	_      [6]byte
	filter *sockFilter
}

// Classic BPF opcodes and seccomp return values.
const (
	bpfLdWAbs  = 0x20 // BPF_LD|BPF_W|BPF_ABS
	bpfJeqK    = 0x15 // BPF_JMP|BPF_JEQ|BPF_K
	bpfJgeK    = 0x35 // BPF_JMP|BPF_JGE|BPF_K
	bpfJsetK   = 0x45 // BPF_JMP|BPF_JSET|BPF_K
	bpfRetK    = 0x06 // BPF_RET|BPF_K
	retAllow   = 0x7fff0000
	retErrno   = 0x00050000
	offNr      = 0
	offArch    = 4
	offArg0Low = 16 // little-endian: the low half of args[0]
)

// program assembles the filter. Jumps are to labels resolved at the end.
func (t *syscallTable) program() []sockFilter {
	type ins struct {
		f      sockFilter
		jt, jf string
	}
	var p []ins
	add := func(code uint16, k uint32, jt, jf string) {
		p = append(p, ins{f: sockFilter{code: code, k: k}, jt: jt, jf: jf})
	}
	labels := map[string]int{}
	label := func(name string) { labels[name] = len(p) }

	add(bpfLdWAbs, offArch, "", "")
	add(bpfJeqK, t.auditArch, "", "nosys") // another ABI (i386 on amd64): its numbers differ
	add(bpfLdWAbs, offNr, "", "")
	if t.x32Bit {
		add(bpfJgeK, 0x40000000, "nosys", "")
	}
	for _, e := range t.deny {
		add(bpfJeqK, e.nr, "eperm", "")
	}
	add(bpfJeqK, t.clone3, "nosys", "")
	add(bpfJeqK, t.clone, "clone", "")
	add(bpfRetK, retAllow, "", "")
	label("clone")
	add(bpfLdWAbs, offArg0Low, "", "")
	add(bpfJsetK, cloneNSFlags, "eperm", "allow")
	label("allow") // classic BPF jumps forward only
	add(bpfRetK, retAllow, "", "")
	label("eperm")
	add(bpfRetK, retErrno|uint32(syscall.EPERM), "", "")
	label("nosys")
	add(bpfRetK, retErrno|uint32(syscall.ENOSYS), "", "")

	out := make([]sockFilter, len(p))
	for i, in := range p {
		f := in.f
		rel := func(l string) uint8 {
			if l == "" {
				return 0
			}
			return uint8(labels[l] - i - 1)
		}
		f.jt, f.jf = rel(in.jt), rel(in.jf)
		out[i] = f
	}
	return out
}

func installFilter() error {
	t := filter()
	if t == nil {
		return fmt.Errorf("no syscall table for %s: the bench runs without halebench's filter", runtime.GOARCH)
	}
	prog := t.program()
	if len(prog) > 255 {
		return errors.New("filter too long for 8-bit jumps")
	}
	fp := sockFprog{n: uint16(len(prog)), filter: &prog[0]}
	// SPEC_ALLOW: a seccomp filter would otherwise turn on the kernel's
	// speculative-store-bypass mitigation for the bench, which slows some
	// code; benches are measured as they run without the filter.
	const setModeFilter, flagTsync, flagSpecAllow = 1, 1, 4
	r, _, e := syscall.Syscall(t.seccompNr, setModeFilter, flagTsync|flagSpecAllow, uintptr(unsafe.Pointer(&fp)))
	if e == syscall.EINVAL { // a kernel older than 4.17
		r, _, e = syscall.Syscall(t.seccompNr, setModeFilter, flagTsync, uintptr(unsafe.Pointer(&fp)))
	}
	runtime.KeepAlive(prog)
	if e != 0 {
		return e
	}
	if r != 0 {
		return fmt.Errorf("thread %d could not take the filter", r)
	}
	return nil
}
