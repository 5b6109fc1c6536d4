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
	// Checked on their first argument: the address family, and the
	// execution domain.
	socket, socketpair, personality uint32
	x32Bit                          bool // amd64: numbers with bit 30 set are the x32 ABI
	deny                            []sysEntry
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
			socket: 41, socketpair: 53, personality: 135,
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
			socket: 198, socketpair: 199, personality: 92,
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
	bpfJaK     = 0x05 // BPF_JMP|BPF_JA: k is the offset
	bpfRetK    = 0x06 // BPF_RET|BPF_K
	retAllow   = 0x7fff0000
	retErrno   = 0x00050000
	offNr      = 0
	offArch    = 4
	offArg0Low = 16 // little-endian: the low half of args[0]
)

// Address families a bench may open a socket of: local ones, and the
// internet ones, which reach only loopback in a container without a
// network. Every other (AF_VSOCK above all: the container's network mode
// does not cover it) answers EAFNOSUPPORT.
var allowedFamilies = []uint32{1 /* AF_UNIX */, 2 /* AF_INET */, 10 /* AF_INET6 */}

// Execution domains a bench may set with personality(2): the default,
// ADDR_NO_RANDOMIZE (what Valgrind's count lane asks for), and the query
// 0xffffffff, which changes nothing.
var allowedPersonalities = []uint32{0, 0x0040000, 0xffffffff}

// program assembles the filter: the architecture, then the denied calls,
// then the calls judged on their first argument.
func (t *syscallTable) program() []sockFilter {
	var a bpfAsm
	a.add(bpfLdWAbs, offArch, "", "")
	a.add(bpfJeqK, t.auditArch, "", "nosys") // another ABI (i386 on amd64): its numbers differ
	a.add(bpfLdWAbs, offNr, "", "")
	if t.x32Bit {
		a.add(bpfJgeK, 0x40000000, "nosys", "")
	}
	for _, e := range t.deny {
		a.add(bpfJeqK, e.nr, "eperm", "")
	}
	a.add(bpfJeqK, t.clone3, "nosys", "")
	a.add(bpfJeqK, t.clone, "clone", "")
	a.add(bpfJeqK, t.socket, "family", "")
	a.add(bpfJeqK, t.socketpair, "family", "")
	a.add(bpfJeqK, t.personality, "persona", "")
	a.add(bpfRetK, retAllow, "", "")
	a.label("clone")
	a.add(bpfLdWAbs, offArg0Low, "", "")
	a.add(bpfJsetK, cloneNSFlags, "eperm", "allow")
	a.oneOf("family", allowedFamilies, "eafnosupport")
	a.oneOf("persona", allowedPersonalities, "eperm")
	a.label("allow") // classic BPF jumps forward only
	a.add(bpfRetK, retAllow, "", "")
	a.label("eperm")
	a.add(bpfRetK, retErrno|uint32(syscall.EPERM), "", "")
	a.label("eafnosupport")
	a.add(bpfRetK, retErrno|uint32(syscall.EAFNOSUPPORT), "", "")
	a.label("nosys")
	a.add(bpfRetK, retErrno|uint32(syscall.ENOSYS), "", "")
	return a.resolve()
}

// bpfAsm is a classic BPF program whose jumps name labels, resolved at the
// end.
type bpfAsm struct {
	ins    []bpfIns
	labels map[string]int
}

type bpfIns struct {
	f      sockFilter
	jt, jf string
}

func (a *bpfAsm) add(code uint16, k uint32, jt, jf string) {
	a.ins = append(a.ins, bpfIns{f: sockFilter{code: code, k: k}, jt: jt, jf: jf})
}

func (a *bpfAsm) label(name string) {
	if a.labels == nil {
		a.labels = map[string]int{}
	}
	a.labels[name] = len(a.ins)
}

// oneOf, at label name, allows the call when the low half of its first
// argument is one of values, and jumps to otherwise when not.
func (a *bpfAsm) oneOf(name string, values []uint32, otherwise string) {
	a.label(name)
	a.add(bpfLdWAbs, offArg0Low, "", "")
	for _, v := range values {
		a.add(bpfJeqK, v, "allow", "")
	}
	a.add(bpfJaK, 0, "", "")
	a.ins[len(a.ins)-1].jt = otherwise
}

func (a *bpfAsm) resolve() []sockFilter {
	out := make([]sockFilter, len(a.ins))
	for i, in := range a.ins {
		f := in.f
		rel := func(l string) uint32 {
			if l == "" {
				return 0
			}
			return uint32(a.labels[l] - i - 1)
		}
		if f.code == bpfJaK {
			f.k = rel(in.jt)
		} else {
			f.jt, f.jf = uint8(rel(in.jt)), uint8(rel(in.jf))
		}
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
