//go:build linux

package main

import (
	"errors"
	"fmt"
	"runtime"
	"syscall"
	"unsafe"
)

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
