//go:build linux

// Command halebench-sampler runs inside every bench container. It takes all
// samples of one (bench, language) pair in one container, so a sample costs a
// fork+exec and a cgroup mkdir, not a container start. Per sample it reads the
// bench's elapsed_ns and check lines, the wait4 rusage of the bench process,
// and the memory peak of a cgroup made for that sample alone.
//
// It is built inside BuildKit from this one file with the standard library
// only (the toolchain images have no module proxy), so it shares no code with
// the orchestrator: the orchestrator reads the one JSON line it prints last.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"
)

// resultPrefix starts the last line of the sampler's stdout: the JSON result.
const resultPrefix = "halebench-result "

// Sample statuses. They are the report's statuses too.
const (
	statusOK          = "ok"
	statusNoElapsed   = "no_elapsed"
	statusBadOutput   = "bad_output"
	statusRunFailed   = "run_failed"
	statusTimeout     = "timeout"
	statusOOM         = "oom"
	statusBuildFailed = "build_failed"
)

type sample struct {
	Warmup     bool   `json:"warmup,omitempty"`
	Status     string `json:"status"`
	Detail     string `json:"detail,omitempty"`
	ElapsedNs  int64  `json:"elapsed_ns,omitempty"`
	Check      string `json:"check,omitempty"`
	MaxRSSKB   int64  `json:"maxrss_kb,omitempty"`
	MemPeakKB  *int64 `json:"mem_peak_kb,omitempty"`
	WallNs     int64  `json:"wall_ns"`
	ExitCode   int    `json:"exit_code"`
	Signal     string `json:"signal,omitempty"`
	StderrTail string `json:"stderr_tail,omitempty"`
}

type environment struct {
	Affinity      string `json:"affinity"`
	CgroupCpuset  string `json:"cgroup_cpuset,omitempty"`
	CgroupVersion string `json:"cgroup_version"`
	MemPeakSource string `json:"mem_peak_source"`
	MemPeakError  string `json:"mem_peak_error,omitempty"`
	Kernel        string `json:"kernel,omitempty"`
	CPUModel      string `json:"cpu_model,omitempty"`
	// What the container gave the sampler, and what a bench gets.
	ContainerPrivileges *privileges `json:"container_privileges,omitempty"`
	BenchPrivileges     *privileges `json:"bench_privileges,omitempty"`
	ConfinementErrors   []string    `json:"confinement_errors,omitempty"`
}

type result struct {
	ID    string `json:"id,omitempty"`
	Nonce string `json:"nonce,omitempty"`
	// Spent: a sample left processes that could not be killed, or a cgroup
	// that could not be removed; the sampler takes no further job.
	Spent      bool        `json:"spent,omitempty"`
	Env        environment `json:"env"`
	Status     string      `json:"status"`
	Detail     string      `json:"detail,omitempty"`
	Samples    []sample    `json:"samples"`
	BuildError string      `json:"build_error,omitempty"`
}

type options struct {
	iters       int
	warmup      int
	timeout     time.Duration
	seed        string
	memLimit    int64
	outCap      int
	buildFailed string
	tee         bool
	env         []string
	argv        []string
}

// job is one (bench, language) sent to `serve` on stdin, one JSON line each.
type job struct {
	ID          string   `json:"id"`
	Nonce       string   `json:"nonce"`
	Iters       int      `json:"iters"`
	Warmup      int      `json:"warmup"`
	TimeoutNs   int64    `json:"timeout_ns"`
	Seed        string   `json:"seed"`
	MemLimit    int64    `json:"mem_limit"`
	OutCap      int      `json:"out_cap"`
	BuildFailed string   `json:"build_failed"`
	Env         []string `json:"env"`
	Argv        []string `json:"argv"`
}

func main() {
	if len(os.Args) >= 2 && os.Args[1] == "serve" {
		serve()
		return
	}
	if len(os.Args) >= 2 && os.Args[1] == "probe" {
		probe()
		return
	}
	if len(os.Args) < 2 || os.Args[1] != "run" {
		fmt.Fprintln(os.Stderr, "usage: halebench-sampler run [flags] -- PROGRAM [ARGS...]\n       halebench-sampler serve   (jobs as JSON lines on stdin)")
		os.Exit(2)
	}
	fs := flag.NewFlagSet("run", flag.ExitOnError)
	var o options
	fs.IntVar(&o.iters, "iters", 5, "measured samples")
	fs.IntVar(&o.warmup, "warmup", 1, "discarded warm-up runs before the samples")
	fs.DurationVar(&o.timeout, "timeout", 120*time.Second, "per-sample timeout")
	fs.StringVar(&o.seed, "seed", "0", "HALEBENCH_SEED handed to the bench")
	fs.Int64Var(&o.memLimit, "mem-limit", 0, "per-sample memory limit in bytes (0: none)")
	fs.IntVar(&o.outCap, "out-cap", 1<<20, "bytes of bench stdout kept; the rest is counted and dropped")
	fs.StringVar(&o.buildFailed, "build-failed", "", "file whose presence means the build failed (its text is the compiler's message)")
	fs.BoolVar(&o.tee, "tee", false, "copy the bench's stdout lines to our stdout as they come")
	_ = fs.Parse(os.Args[2:])
	o.argv = fs.Args()
	if len(o.argv) == 0 {
		fmt.Fprintln(os.Stderr, "halebench-sampler: no program after --")
		os.Exit(2)
	}
	// The nonce comes in the environment, which only root can read in
	// /proc/1/environ; it leaves it before any bench starts.
	nonce := os.Getenv("HALEBENCH_NONCE")
	os.Unsetenv("HALEBENCH_NONCE")
	s := newSession()
	res := s.run(o)
	s.close()
	res.Nonce = nonce
	fmt.Println()
	printResult(res)
}

// printResult writes a result line. In serve mode it is all the sampler
// writes on stdout.
func printResult(res result) {
	line, _ := json.Marshal(res)
	fmt.Printf("%s%s\n", resultPrefix, line)
}

// serve runs the jobs it reads on stdin, one after another, in this one
// container, and answers each with a result line; it ends at EOF. The
// container's start is then paid once for many (bench, language) pairs.
func serve() {
	s := newSession()
	defer s.close()
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	for sc.Scan() {
		var j job
		if err := json.Unmarshal(sc.Bytes(), &j); err != nil {
			printResult(result{Status: statusRunFailed, Detail: "bad job line: " + err.Error(), Samples: []sample{}})
			continue
		}
		o := options{iters: j.Iters, warmup: j.Warmup, timeout: time.Duration(j.TimeoutNs), seed: j.Seed,
			memLimit: j.MemLimit, outCap: j.OutCap, buildFailed: j.BuildFailed, env: j.Env, argv: j.Argv}
		if o.timeout <= 0 {
			o.timeout = 120 * time.Second
		}
		if o.outCap <= 0 {
			o.outCap = 1 << 20
		}
		var res result
		if len(o.argv) == 0 {
			res = result{Status: statusRunFailed, Detail: "job without a program", Samples: []sample{}}
		} else {
			res = s.run(o)
		}
		res.ID, res.Nonce = j.ID, j.Nonce
		printResult(res)
		if s.stopped() || res.Spent {
			return
		}
	}
}

// session is what the sampler sets up once: the environment it reports and
// the memory cgroup hierarchy it makes sample cgroups in.
type session struct {
	env  environment
	cg   cgroups
	conf *confinement
	stop chan struct{}
}

func newSession() *session {
	s := &session{stop: make(chan struct{})}
	s.env.Affinity = affinity()
	s.env.Kernel = kernel()
	s.env.CPUModel = cpuModel()
	cg, err := openCgroups()
	s.env.CgroupVersion = cgroupVersion()
	s.env.CgroupCpuset = cgroupCpuset(s.env.CgroupVersion)
	if err != nil {
		s.env.MemPeakSource = "unavailable"
		s.env.MemPeakError = err.Error()
	} else {
		s.cg = cg
		s.env.MemPeakSource = cg.source()
	}
	own := ownPrivileges()
	s.env.ContainerPrivileges = &own
	s.conf = confine()
	if bp, err := s.conf.probeBench(); err != nil {
		s.conf.errs = append(s.conf.errs, "probing the bench's privileges: "+err.Error())
	} else {
		s.env.BenchPrivileges = bp
	}
	s.env.ConfinementErrors = s.conf.errs
	// A SIGTERM from the engine (container stop) must not leave a bench
	// running without us: kill it and stop sampling.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		<-sigs
		close(s.stop)
	}()
	return s
}

func (s *session) stopped() bool {
	select {
	case <-s.stop:
		return true
	default:
		return false
	}
}

func (s *session) close() {
	if s.cg != nil {
		s.cg.close()
	}
}

func (s *session) run(o options) result {
	res := result{Status: statusOK, Samples: []sample{}, Env: s.env}
	if o.buildFailed != "" {
		if msg, err := os.ReadFile(o.buildFailed); err == nil {
			res.Status = statusBuildFailed
			res.BuildError = tail(string(msg), 4000)
			return res
		}
	}
	total := o.warmup + o.iters
	for i := 0; i < total; i++ {
		smp, spent := runOnce(o, s.cg, s.conf, s.stop)
		smp.Warmup = i < o.warmup
		res.Samples = append(res.Samples, smp)
		if spent {
			res.Spent = true
			if smp.Status == statusOK {
				smp.Status, smp.Detail = statusRunFailed, "the sample left processes that could not be killed"
				res.Samples[len(res.Samples)-1] = smp
			}
		}
		if smp.Status != statusOK {
			res.Status = smp.Status
			res.Detail = smp.Detail
			break
		}
	}
	return res
}

// runOnce takes one sample. The sample is over when the bench has exited and
// every holder of its stdout and stderr has closed them, or at the timeout;
// then every process the bench left is killed and reaped (PID 1 inherits
// them). spent says that could not be done: the container must not serve
// another sample.
func runOnce(o options, cg cgroups, conf *confinement, stop <-chan struct{}) (s sample, spent bool) {
	path, err := exec.LookPath(o.argv[0])
	if err != nil {
		return failed(statusRunFailed, "starting "+o.argv[0]+": "+err.Error()), false
	}
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		return failed(statusRunFailed, "opening /dev/null: "+err.Error()), false
	}
	defer devnull.Close()
	outR, outW, err := os.Pipe()
	if err != nil {
		return failed(statusRunFailed, "stdout pipe: "+err.Error()), false
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		outR.Close()
		outW.Close()
		return failed(statusRunFailed, "stderr pipe: "+err.Error()), false
	}
	attr := &syscall.ProcAttr{
		Env:   dedupEnv(append(append(os.Environ(), "HOME=/tmp"), append(o.env, "HALEBENCH_SEED="+o.seed)...)),
		Files: []uintptr{devnull.Fd(), outW.Fd(), errW.Fd()},
		Sys:   conf.sysProcAttr(),
	}
	fork := func() (int, error) { return syscall.ForkExec(path, o.argv, attr) }

	var sc sampleCgroup
	if cg != nil {
		sc, err = cg.newSample(o.memLimit)
		if err != nil {
			outR.Close()
			outW.Close()
			errR.Close()
			errW.Close()
			return failed(statusRunFailed, "making the sample's cgroup: "+err.Error()), false
		}
	}

	start := time.Now()
	var pid int
	if sc != nil {
		pid, err = sc.start(fork)
	} else {
		pid, err = fork()
	}
	outW.Close()
	errW.Close()
	if err != nil {
		if pid > 0 { // started, but the sampler could not leave its cgroup
			_ = syscall.Kill(pid, syscall.SIGKILL)
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(pid, &ws, 0, nil)
			spent = true
		}
		outR.Close()
		errR.Close()
		if sc != nil && sc.remove() != nil {
			spent = true
		}
		return failed(statusRunFailed, "starting "+o.argv[0]+": "+err.Error()), spent
	}

	var out capture
	errTail := &tailBuffer{max: 4096}
	outDone, errDone := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(outDone)
		out.read(outR, o.outCap, o.tee)
	}()
	go func() {
		defer close(errDone)
		_, _ = io.Copy(errTail, errR)
	}()
	benchDone := make(chan struct{})
	childless := make(chan struct{})
	var ws syscall.WaitStatus
	var ru syscall.Rusage
	reaping := false
	startReaper := func() {
		if !reaping {
			reaping = true
			go reap(pid, &ws, &ru, benchDone, childless)
		}
	}

	timer := time.NewTimer(o.timeout)
	defer timer.Stop()
	timedOut, stopped := false, false
	// The reaper, blocked in wait4, starts once the output is closed, as
	// a bench usually exits right then: with one CPU (GOMAXPROCS 1) a
	// goroutine parked in wait4 all along delays the readers' wake-ups.
	waiting := []<-chan struct{}{outDone, errDone, benchDone}
	for len(waiting) > 0 && !timedOut && !stopped {
		if len(waiting) == 1 {
			startReaper()
		}
		select {
		case <-waiting[0]:
			waiting = waiting[1:]
		case <-timer.C:
			timedOut = true
		case <-stop:
			stopped = true
		}
	}
	startReaper()
	s.WallNs = time.Since(start).Nanoseconds()

	// Nothing the bench started outlives its sample.
	reaped := killAll(pid, sc, conf, childless)
	if !reaped {
		spent = true
	}
	for _, c := range []chan struct{}{outDone, errDone} {
		select {
		case <-c:
		case <-time.After(time.Second):
			// A descriptor kept open where no process of ours holds it.
			spent = true
		}
	}
	outR.Close()
	errR.Close()
	if !reaped {
		// The reaper still runs; what it has is not ours to read.
		ws, ru = syscall.WaitStatus(syscall.SIGKILL), syscall.Rusage{}
	}
	s.MaxRSSKB = ru.Maxrss
	s.ExitCode = ws.ExitStatus()
	if ws.Signaled() {
		s.Signal = ws.Signal().String()
	}
	s.StderrTail = tail(errTail.String(), 2000)
	oom := false
	if sc != nil {
		if kb, err := sc.peakKB(); err == nil {
			s.MemPeakKB = &kb
		}
		oom = sc.oomKilled()
		if err := sc.remove(); err != nil {
			spent = true
		}
	}

	switch {
	case stopped:
		s.Status, s.Detail = statusRunFailed, "interrupted by a signal to the sampler"
		return s, spent
	case timedOut:
		s.Status, s.Detail = statusTimeout, fmt.Sprintf("killed after %s", o.timeout)
		return s, spent
	case oom:
		s.Status, s.Detail = statusOOM, fmt.Sprintf("killed by the memory limit of %d MiB", o.memLimit>>20)
		return s, spent
	case ws.Signaled() || ws.ExitStatus() != 0:
		s.Status = statusRunFailed
		if ws.Signaled() {
			s.Detail = "killed by signal " + ws.Signal().String()
		} else {
			s.Detail = fmt.Sprintf("exit status %d", ws.ExitStatus())
		}
		return s, spent
	}
	p := parseOutput(out.buf.Bytes(), out.dropped)
	s.Status, s.Detail, s.ElapsedNs, s.Check = p.status, p.detail, p.elapsed, p.check
	return s, spent
}

// dedupEnv keeps the last of each variable, as os/exec does: the job's
// variables override the image's.
func dedupEnv(env []string) []string {
	last := map[string]int{}
	for i, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		last[k] = i
	}
	out := make([]string, 0, len(last))
	for i, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if last[k] == i {
			out = append(out, kv)
		}
	}
	return out
}

// reap waits for every child: the bench (its status and rusage are kept)
// and whatever it orphaned, which PID 1 inherits. It returns when the
// sampler has no child left.
func reap(bench int, ws *syscall.WaitStatus, ru *syscall.Rusage, benchDone, childless chan struct{}) {
	defer close(childless)
	for {
		var st syscall.WaitStatus
		var u syscall.Rusage
		pid, err := syscall.Wait4(-1, &st, 0, &u)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return
		}
		if pid == bench {
			*ws, *ru = st, u
			close(benchDone)
		}
	}
}

// killAll kills whatever the bench started, and says whether all of it is
// dead and reaped within 5 s. The sampler is PID 1 of the container (or, if
// not, a child subreaper): every orphan becomes its child, so no child left
// means no process left. As PID 1 it kills with kill(-1), which reaches every
// other process of the pid namespace in one sweep that fork cannot race;
// otherwise it kills the bench's group, the sample's cgroup and the bench's
// uid, over and over.
func killAll(pid int, sc sampleCgroup, conf *confinement, childless <-chan struct{}) bool {
	_ = syscall.Kill(-pid, syscall.SIGKILL)
	if sc != nil {
		sc.kill()
	}
	deadline := time.Now().Add(5 * time.Second)
	for wait := 100 * time.Microsecond; ; wait *= 2 {
		select {
		case <-childless:
			return true
		default:
		}
		if time.Now().After(deadline) {
			return false
		}
		if os.Getpid() == 1 {
			_ = syscall.Kill(-1, syscall.SIGKILL)
		} else {
			var pids []int
			if sc != nil {
				pids = sc.procs()
			}
			if conf != nil && conf.dropUser {
				pids = append(pids, procsOfUID(benchUID)...)
			}
			for _, p := range pids {
				_ = syscall.Kill(p, syscall.SIGKILL)
			}
		}
		if wait > 50*time.Millisecond {
			wait = 50 * time.Millisecond
		}
		select {
		case <-childless:
			return true
		case <-time.After(wait):
		}
	}
}

// procsOfUID lists the live (not zombie) processes whose real uid is uid.
func procsOfUID(uid int) []int {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	want := strconv.Itoa(uid)
	var out []int
	for _, n := range names {
		p, err := strconv.Atoi(n)
		if err != nil || p == os.Getpid() {
			continue
		}
		b, err := os.ReadFile("/proc/" + n + "/status")
		if err != nil {
			continue
		}
		var state, ruid string
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "State:"); ok {
				state = strings.TrimSpace(v)
			} else if v, ok := strings.CutPrefix(line, "Uid:"); ok {
				if f := strings.Fields(v); len(f) > 0 {
					ruid = f[0]
				}
				break
			}
		}
		if ruid == want && !strings.HasPrefix(state, "Z") {
			out = append(out, p)
		}
	}
	return out
}

func failed(status, detail string) sample { return sample{Status: status, Detail: detail} }

// parsed is what a bench's stdout says.
type parsed struct {
	status  string
	detail  string
	elapsed int64
	check   string
}

// parseOutput reads a bench's stdout: exactly one elapsed_ns=N line with N a
// positive integer (an "ns" unit may follow it), at most one check= line. Output cut at the cap is bad
// output even when the line is there: the bench did not do what it says.
func parseOutput(out []byte, dropped int64) parsed {
	if dropped > 0 {
		return parsed{status: statusBadOutput, detail: fmt.Sprintf("stdout over the cap: %d bytes dropped", dropped)}
	}
	var elapsed []string
	var checks []string
	for _, line := range strings.Split(string(out), "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case strings.HasPrefix(line, "elapsed_ns="):
			elapsed = append(elapsed, strings.TrimPrefix(line, "elapsed_ns="))
		case strings.HasPrefix(line, "check="):
			checks = append(checks, strings.TrimPrefix(line, "check="))
		}
	}
	if len(elapsed) == 0 {
		return parsed{status: statusNoElapsed, detail: "no elapsed_ns=N line on stdout"}
	}
	if len(elapsed) > 1 {
		return parsed{status: statusBadOutput, detail: fmt.Sprintf("%d elapsed_ns lines, want one", len(elapsed))}
	}
	n, ok := parseElapsed(elapsed[0])
	if !ok {
		return parsed{status: statusBadOutput, detail: fmt.Sprintf("elapsed_ns=%q is not a positive integer of nanoseconds", tail(elapsed[0], 40))}
	}
	if len(checks) > 1 {
		return parsed{status: statusBadOutput, detail: fmt.Sprintf("%d check lines, want at most one", len(checks))}
	}
	p := parsed{status: statusOK, elapsed: n}
	if len(checks) == 1 {
		p.check = strings.TrimSpace(checks[0])
	}
	return p
}

// capture keeps the first max bytes of a stream and counts the rest, so a
// bench that prints gigabytes costs no memory.
type capture struct {
	buf     bytes.Buffer
	dropped int64
}

func (c *capture) read(r io.Reader, max int, tee bool) {
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadSlice('\n')
		if len(line) > 0 {
			if room := max - c.buf.Len(); room > 0 {
				if len(line) <= room {
					c.buf.Write(line)
				} else {
					c.buf.Write(line[:room])
					c.dropped += int64(len(line) - room)
				}
			} else {
				c.dropped += int64(len(line))
			}
			// A bench's line that looks like a result is not teed: only
			// the sampler speaks that way on its stdout.
			if tee && c.dropped == 0 && !bytes.HasPrefix(line, []byte(resultPrefix)) {
				os.Stdout.Write(line)
			}
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return
		}
	}
}

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append(t.b[:0:0], t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

func tail(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

func kernel() string {
	b, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// affinity is the CPU list this process may run on, as the scheduler sees it.
func affinity() string {
	var mask [1024 / 64]uint64
	_, _, errno := syscall.RawSyscall(syscall.SYS_SCHED_GETAFFINITY, 0, uintptr(len(mask)*8), uintptr(unsafe.Pointer(&mask[0])))
	if errno != 0 {
		return "unknown: " + errno.Error()
	}
	var cpus []int
	for w, bits := range mask {
		for b := 0; b < 64; b++ {
			if bits&(1<<uint(b)) != 0 {
				cpus = append(cpus, w*64+b)
			}
		}
	}
	return formatCPUList(cpus)
}

// formatCPUList writes CPUs the kernel's way: "0-3,6".
func formatCPUList(cpus []int) string {
	sort.Ints(cpus)
	var parts []string
	for i := 0; i < len(cpus); {
		j := i
		for j+1 < len(cpus) && cpus[j+1] == cpus[j]+1 {
			j++
		}
		if i == j {
			parts = append(parts, strconv.Itoa(cpus[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", cpus[i], cpus[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

const cgroup2Magic = 0x63677270

func cgroupVersion() string {
	var st syscall.Statfs_t
	if err := syscall.Statfs("/sys/fs/cgroup", &st); err == nil && st.Type == cgroup2Magic {
		return "v2"
	}
	return "v1"
}

func cgroupCpuset(version string) string {
	paths := []string{"/sys/fs/cgroup/cpuset/cpuset.effective_cpus", "/sys/fs/cgroup/cpuset/cpuset.cpus"}
	if version == "v2" {
		paths = []string{"/sys/fs/cgroup/cpuset.cpus.effective"}
	}
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			return strings.TrimSpace(string(b))
		}
	}
	return ""
}

// cgroups makes one memory cgroup per sample under the container's own
// memory hierarchy, mounted afresh (the engine's mount is read-only).
type cgroups interface {
	source() string
	newSample(limit int64) (sampleCgroup, error)
	close()
}

type sampleCgroup interface {
	// start runs fork with the new process inside the sample's cgroup.
	start(fork func() (int, error)) (int, error)
	peakKB() (int64, error)
	oomKilled() bool
	// kill kills every process in the cgroup at once where the kernel can
	// (v2 cgroup.kill); procs lists those left.
	kill()
	procs() []int
	remove() error
}

const mountDir = "/run/halebench-cg"

func openCgroups() (cgroups, error) {
	if err := os.MkdirAll(mountDir, 0o755); err != nil {
		return nil, fmt.Errorf("mkdir %s: %w", mountDir, err)
	}
	if cgroupVersion() == "v2" {
		if err := syscall.Mount("cgroup2", mountDir, "cgroup2", 0, ""); err != nil {
			return nil, fmt.Errorf("mount cgroup2 (needs CAP_SYS_ADMIN and a private cgroup namespace): %w", err)
		}
		return openV2()
	}
	if err := syscall.Mount("cgroup", mountDir, "cgroup", 0, "memory"); err != nil {
		return nil, fmt.Errorf("mount the v1 memory cgroup (needs CAP_SYS_ADMIN and a private cgroup namespace): %w", err)
	}
	return &v1{root: mountDir}, nil
}

// v1: the sampler moves itself into the sample's cgroup, starts the bench
// (which inherits it) and moves back. Pages it already holds stay charged
// where they were (move_charge_at_immigrate is off), so the child cgroup sees
// the bench from its first instruction.
type v1 struct {
	root string
	mu   sync.Mutex
}

// sampleSeq names sample cgroups uniquely within this sampler.
var sampleSeq atomic.Int64

func sampleDir(root string) string {
	return filepath.Join(root, fmt.Sprintf("sample-%d-%d", os.Getpid(), sampleSeq.Add(1)))
}

func (c *v1) source() string { return "cgroup v1 memory.max_usage_in_bytes of a per-sample cgroup" }
func (c *v1) close()         { _ = syscall.Unmount(c.root, syscall.MNT_DETACH) }

func (c *v1) newSample(limit int64) (sampleCgroup, error) {
	dir := sampleDir(c.root)
	_ = os.Remove(dir)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, err
	}
	if limit > 0 {
		if err := writeFile(filepath.Join(dir, "memory.limit_in_bytes"), strconv.FormatInt(limit, 10)); err != nil {
			_ = os.Remove(dir)
			return nil, err
		}
		// Without these a bench over its limit swaps instead of being
		// killed, and an OOM would show up as a timeout.
		_ = writeFile(filepath.Join(dir, "memory.swappiness"), "0")
		_ = writeFile(filepath.Join(dir, "memory.memsw.limit_in_bytes"), strconv.FormatInt(limit, 10))
	}
	return &v1Sample{parent: c, dir: dir}, nil
}

type v1Sample struct {
	parent *v1
	dir    string
}

func (s *v1Sample) start(fork func() (int, error)) (int, error) {
	s.parent.mu.Lock()
	defer s.parent.mu.Unlock()
	return joinForkLeave(s.dir, s.parent.root, fork)
}

// joinForkLeave moves the sampler into dir, forks there and moves back to
// home: the child starts inside dir.
func joinForkLeave(dir, home string, fork func() (int, error)) (int, error) {
	self := strconv.Itoa(os.Getpid())
	if err := writeFile(filepath.Join(dir, "cgroup.procs"), self); err != nil {
		return 0, fmt.Errorf("joining %s: %w", dir, err)
	}
	pid, err := fork()
	if berr := writeFile(filepath.Join(home, "cgroup.procs"), self); berr != nil && err == nil {
		err = fmt.Errorf("leaving %s: %w", dir, berr)
	}
	return pid, err
}

// A v1 memory cgroup has no kill file: killAll loops over procs.
func (s *v1Sample) kill()        {}
func (s *v1Sample) procs() []int { return readProcs(s.dir) }

func (s *v1Sample) peakKB() (int64, error) {
	n, err := readInt(filepath.Join(s.dir, "memory.max_usage_in_bytes"))
	return n / 1024, err
}

func (s *v1Sample) oomKilled() bool {
	b, err := os.ReadFile(filepath.Join(s.dir, "memory.oom_control"))
	if err != nil {
		return false
	}
	return fieldValue(string(b), "oom_kill") > 0
}

func (s *v1Sample) remove() error { return removeCgroup(s.dir) }

// v2: the sampler lives in a leaf of its own (no process may sit in a cgroup
// that delegates controllers) and, as on v1, joins the sample's cgroup to
// fork the bench there. (clone3(CLONE_INTO_CGROUP) would spare two writes,
// but the seccomp filter the bench inherits must answer clone3 with ENOSYS:
// a filter cannot see clone3's flags.)
type v2 struct {
	root string
}

func openV2() (cgroups, error) {
	c := &v2{root: mountDir}
	self := filepath.Join(c.root, "sampler")
	if err := os.MkdirAll(self, 0o755); err != nil {
		return nil, err
	}
	if err := writeFile(filepath.Join(self, "cgroup.procs"), strconv.Itoa(os.Getpid())); err != nil {
		return nil, fmt.Errorf("moving the sampler into its own leaf: %w", err)
	}
	if err := writeFile(filepath.Join(c.root, "cgroup.subtree_control"), "+memory"); err != nil {
		return nil, fmt.Errorf("enabling the memory controller: %w", err)
	}
	if _, err := os.Stat(filepath.Join(self, "memory.peak")); err != nil {
		return nil, errors.New("memory.peak missing (kernel older than 5.19)")
	}
	return c, nil
}

func (c *v2) source() string { return "cgroup v2 memory.peak of a per-sample cgroup" }
func (c *v2) close()         {}

func (c *v2) newSample(limit int64) (sampleCgroup, error) {
	dir := sampleDir(c.root)
	_ = os.Remove(dir)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, err
	}
	if limit > 0 {
		if err := writeFile(filepath.Join(dir, "memory.max"), strconv.FormatInt(limit, 10)); err != nil {
			_ = os.Remove(dir)
			return nil, err
		}
		_ = writeFile(filepath.Join(dir, "memory.swap.max"), "0")
	}
	return &v2Sample{dir: dir, home: filepath.Join(c.root, "sampler")}, nil
}

type v2Sample struct {
	dir  string
	home string
}

func (s *v2Sample) start(fork func() (int, error)) (int, error) {
	return joinForkLeave(s.dir, s.home, fork)
}

func (s *v2Sample) kill()        { _ = writeFile(filepath.Join(s.dir, "cgroup.kill"), "1") }
func (s *v2Sample) procs() []int { return readProcs(s.dir) }

func (s *v2Sample) peakKB() (int64, error) {
	n, err := readInt(filepath.Join(s.dir, "memory.peak"))
	return n / 1024, err
}

func (s *v2Sample) oomKilled() bool {
	b, err := os.ReadFile(filepath.Join(s.dir, "memory.events"))
	if err != nil {
		return false
	}
	return fieldValue(string(b), "oom_kill") > 0
}

func (s *v2Sample) remove() error { return removeCgroup(s.dir) }

// removeCgroup retries briefly: a cgroup whose last task has just been reaped
// can refuse rmdir for a moment.
func removeCgroup(dir string) error {
	var err error
	for i := 0; i < 250; i++ {
		if err = os.Remove(dir); err == nil || os.IsNotExist(err) {
			return nil
		}
		time.Sleep(2 * time.Millisecond)
	}
	return fmt.Errorf("removing %s: %w", dir, err)
}

// readProcs lists the pids in a cgroup.
func readProcs(dir string) []int {
	b, err := os.ReadFile(filepath.Join(dir, "cgroup.procs"))
	if err != nil {
		return nil
	}
	var out []int
	for _, f := range strings.Fields(string(b)) {
		if p, err := strconv.Atoi(f); err == nil {
			out = append(out, p)
		}
	}
	return out
}

func writeFile(path, s string) error {
	return os.WriteFile(path, []byte(s), 0o644)
}

func readInt(path string) (int64, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	return strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
}

// fieldValue reads "key N" from a cgroup key-value file.
func fieldValue(text, key string) int64 {
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == key {
			n, _ := strconv.ParseInt(f[1], 10, 64)
			return n
		}
	}
	return 0
}

// parseElapsed reads the value of an elapsed_ns= line: digits, then
// optionally the unit "ns". Hale prints a Duration with its unit
// (`elapsed_ns=9373585ns`) and the seed's harness took the digits in front of
// it; any other unit (1.5ms, 2s) is not nanoseconds and is refused rather
// than converted.
func parseElapsed(v string) (int64, bool) {
	v = strings.TrimSuffix(strings.TrimSpace(v), "ns")
	if v == "" {
		return 0, false
	}
	for _, r := range v {
		if r < '0' || r > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, false
	}
	return n, true
}
