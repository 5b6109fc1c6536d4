//go:build linux

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
)

// valgrindPath is Debian's valgrind in the toolchain images.
const valgrindPath = "/usr/bin/valgrind"

// The fixed cache model, when the job asks for the cache simulation: never
// the host's.
var cacheModel = []string{"--cache-sim=yes", "--I1=32768,8,64", "--D1=32768,8,64", "--LL=8388608,16,64"}

// glibcTunables pins what glibc would otherwise size from the CPU's cache
// reports when it picks how to copy and set memory. Under Valgrind the CPUID
// glibc sees is Valgrind's own fixed model for the host's feature level, so
// on any x86-64-v3 host the choice is already the same; these pin it
// regardless, and AVX-512 (beyond the counted target) is off.
const glibcTunables = "glibc.cpu.hwcaps=-AVX512F,-AVX512VL,-AVX512BW,-AVX512DQ,-AVX512CD,-AVX512ER,-AVX512PF" +
	":glibc.cpu.x86_data_cache_size=32768:glibc.cpu.x86_shared_cache_size=8388608" +
	":glibc.cpu.x86_non_temporal_threshold=6291456:glibc.cpu.x86_rep_movsb_threshold=2048:glibc.cpu.x86_rep_stosb_threshold=2048"

// countArgv is Valgrind's command line for one counted run of argv, its
// log on the sampler's socket logAddr (countsock.go says why a socket).
// --trace-children=yes is defence in depth: a program that execs starts a
// Valgrind that connects to the log again, and more than one connection
// fails the count, so a summary written before an exec is never taken for
// Valgrind's. --vgdb=no: Valgrind's gdbserver (on by default) listens on
// FIFOs in /tmp that the program can write, and a monitor command sent
// there zeroes the counters (callgrind's "zero") from outside the code the
// scan looks at.
func countArgv(argv []string, region, cacheSim bool, logAddr string) []string {
	collect := "--collect-atstart=yes"
	if region {
		collect = "--collect-atstart=no"
	}
	out := []string{valgrindPath, "--tool=callgrind", collect}
	if cacheSim {
		out = append(out, cacheModel...)
	}
	out = append(out, "--fair-sched=yes", "--trace-children=yes", "--vgdb=no", "--callgrind-out-file=/dev/null",
		"--log-socket="+logAddr, "--")
	return append(out, argv...)
}

// instrumentOf names what a job's runs are counted by.
func instrumentOf(cacheSim bool) string {
	if cacheSim {
		return wire.InstrumentCallgrindCacheSim
	}
	return wire.InstrumentCallgrind
}

// countEnv is a counted run's whole environment: of the job's variables
// only a bench's knobs and the orchestrator's HALEBENCH_ names (jobEnv),
// then a fixed list (not the image's), the seed, and for a region run the
// clock gate, applied last so that nothing of the job's can change them.
func countEnv(o options, region bool) []string {
	env := append(jobEnv(o.env), "PATH=/usr/local/bin:/usr/bin:/bin", "HOME="+homeDir, "LC_ALL=C", "TZ=UTC",
		"PYTHONHASHSEED=0", "PYTHONDONTWRITEBYTECODE=1", "GLIBC_TUNABLES="+glibcTunables,
		// Go's asynchronous preemption signals trip a Callgrind assertion
		// (threads.c, vgCallgrind_post_signal); without them Go counts.
		"GODEBUG=asyncpreemptoff=1", "HALEBENCH_SEED="+wire.CountSeed)
	if region {
		env = append(env, "LD_PRELOAD="+wire.ClockGatePath)
	}
	return dedupEnv(env)
}

// jobEnv is what of a job's variables a counted run may see: a bench's
// knobs (wire.BenchEnvRefused) and the orchestrator's HALEBENCH_ names.
// The catalogue refuses the rest already; this is the second wall, so no
// VALGRIND_OPTS, LD_* or GLIBC_* of a job reaches Valgrind.
func jobEnv(vars []string) []string {
	out := make([]string, 0, len(vars)+10)
	for _, kv := range vars {
		k, _, _ := strings.Cut(kv, "=")
		if wire.BenchEnvRefused(k) == "" || strings.HasPrefix(k, "HALEBENCH_") {
			out = append(out, kv)
		}
	}
	return out
}

// countRuns takes a job's counted runs. A region job whose first run shows
// that the region is not delimited (or that has no clock gate) is counted
// over the whole process instead, every run, and says why. Each counted
// run must print the check= a timed run printed at the count's seed
// (seedCheck, from the job's first warm-up; nil: one timed run at that seed
// is made first). spent says the container must not serve another job.
func (s *session) countRuns(o options, seedCheck *string) ([]wire.Count, bool) {
	cj := o.count
	runs := cj.Runs
	if runs < 1 {
		runs = 1
	}
	failAll := func(why string) []wire.Count {
		out := make([]wire.Count, runs)
		for i := range out {
			out[i] = wire.Count{Status: wire.CountFailed, Detail: why, Scope: scopeOf(cj.Region), Instrument: instrumentOf(!cj.NoCacheSim)}
		}
		return out
	}
	if cj.BuildFailed != "" {
		if msg, ok := readNote(cj.BuildFailed); ok {
			return failAll("the counted build failed: " + tail(string(msg), 2000)), false
		}
	}
	if len(cj.Argv) == 0 {
		return failAll("a count job without a program"), false
	}
	if why := clientRequests(cj.Argv[0]); why != "" {
		return failAll(why), false
	}
	if s.valgrindVersion(); s.env.Valgrind == "" {
		return failAll("valgrind is not in this image (" + valgrindPath + "): the toolchain image predates the count lane; rebuild it with `halebench images`"), false
	}
	want, why, spent := s.checkAtCountSeed(o, seedCheck)
	if why != "" {
		return failAll(why), spent
	}
	region, why := s.regionGate(cj.Region)
	var out []wire.Count
	for i := 0; i < runs; i++ {
		c, gate, spent := s.countOnce(o, region, want)
		if region && gate != "" && c.Status == wire.CountOK {
			region, why = false, gate
			c, _, spent = s.countOnce(o, false, want)
		}
		if !region && cj.Region && c.Detail == "" {
			c.Detail = "counted over the whole process: " + why
		}
		c.Threads = strings.HasSuffix(why, wire.GateThreads)
		c.Instrument = instrumentOf(!cj.NoCacheSim)
		out = append(out, c)
		if spent {
			return out, true
		}
		if err := s.room.clean(); err != nil {
			out[len(out)-1] = wire.Count{Status: wire.CountFailed, Scope: c.Scope, Instrument: c.Instrument, Detail: "the counted run left what could not be cleaned: " + err.Error()}
			return out, true
		}
		if s.stopped() {
			return out, false
		}
	}
	return s.witnessRuns(o, out, want, region && !cj.NoWitness)
}

// witnessRuns takes the whole process's count of the job's program, once,
// as the region counts' witness (wire.InstructionsProcess): the same
// program, environment (but the clock gate), seed, log socket and checks
// as a region run, Callgrind collecting from the start without its cache
// simulation (the witness needs Ir alone, and is the cheaper for it).
// Nothing it adds is a channel the program can reach: it is one more
// counted run. A witness that could not be taken fails the region counts
// it was to witness: a region count is only taken beside its process's.
// take false: the job takes none (not a region job, or a later one).
func (s *session) witnessRuns(o options, out []wire.Count, want string, take bool) ([]wire.Count, bool) {
	if !take {
		return out, false
	}
	wo := o
	wj := *o.count
	wj.NoCacheSim = true
	wo.count = &wj
	w, _, spent := s.countOnce(wo, false, want)
	if !spent {
		if err := s.room.clean(); err != nil {
			w = wire.Count{Status: wire.CountFailed, Detail: "the counted run left what could not be cleaned: " + err.Error()}
			spent = true
		}
	}
	for i, c := range out {
		switch {
		case c.Status != wire.CountOK || c.Scope != wire.ScopeRegion:
		case w.Status != wire.CountOK || w.Ir == 0:
			why := w.Detail
			if why == "" {
				why = "it counted no instruction"
			}
			out[i] = wire.Count{Status: wire.CountFailed, Scope: c.Scope, Instrument: c.Instrument, WallNs: c.WallNs,
				Detail: "the whole-process run that witnesses the region count failed: " + why}
		default:
			out[i].Set(wire.InstructionsProcess, int64(w.Ir))
		}
	}
	return out, spent
}

// checkAtCountSeed is the check= the counted runs must print: known
// (from the job's first warm-up), or from one discarded run of the job's
// timed build at the count's seed; why says why there is none (that run
// failed), spent that the container is done.
func (s *session) checkAtCountSeed(o options, known *string) (check, why string, spent bool) {
	if known != nil {
		return *known, "", false
	}
	ro := o
	ro.seed = wire.CountSeed
	smp, spent := runOnce(ro, programOf(ro), s.cg, s.conf, s.stop)
	if !spent {
		if err := s.cleanRoom(o.room); err != nil {
			return "", "the timed run at the count's seed left what could not be cleaned: " + err.Error(), true
		}
	}
	if smp.Status != wire.StatusOK {
		return "", fmt.Sprintf("the timed build, run at the count's seed (HALEBENCH_SEED=%s) for the check= its counted runs must print: %s %s", wire.CountSeed, smp.Status, smp.Detail), spent
	}
	return smp.Check, "", spent
}

// checkAgrees fails an ok count whose run printed another check= than
// the timed build at the same seed: what was counted is not the work that
// was timed (a build that runs other code when counted).
func checkAgrees(c wire.Count, counted, timed string) wire.Count {
	if c.Status != wire.CountOK || counted == timed {
		return c
	}
	return wire.Count{Status: wire.CountFailed, Scope: c.Scope, Instrument: c.Instrument, WallNs: c.WallNs,
		Detail: fmt.Sprintf("the counted run printed check=%q, the timed build check=%q at the same seed (HALEBENCH_SEED=%s): what was counted is not the work that was timed",
			counted, timed, wire.CountSeed)}
}

// regionGate says whether a region job can be counted by its region: not
// without a clock gate in the image, nor with one its trusted record does
// not name; why says so.
func (s *session) regionGate(region bool) (bool, string) {
	if !region {
		return false, ""
	}
	if _, err := os.Stat(wire.ClockGatePath); err != nil {
		return false, "no clock gate in this image (" + err.Error() + ")"
	}
	if s.gateUnchecked {
		return false, "the clock gate is not in the image's trusted record, so it is not preloaded"
	}
	return true, ""
}

func scopeOf(region bool) string {
	if region {
		return wire.ScopeRegion
	}
	return wire.ScopeProcess
}

// countOnce runs the program once under Callgrind, confined, timed out and
// reaped as a sample is, and reads the totals from Valgrind's log; its
// check= must be timedCheck (checkAgrees). gate is the clock gate's
// verdict for a region run ("" when delimited).
func (s *session) countOnce(o options, region bool, timedCheck string) (c wire.Count, gate string, spent bool) {
	c.Scope = scopeOf(region)
	cl, err := openCountLog()
	if err != nil {
		c.Status, c.Detail = wire.CountFailed, err.Error()
		return c, "", false
	}
	ro := o
	ro.argv, ro.countEnv, ro.noASLR, ro.dir = countArgv(o.count.Argv, region, !o.count.NoCacheSim, cl.addr()), countEnv(o, region), true, "/"
	ro.timeout, ro.ready, ro.watchValgrind = time.Duration(o.count.TimeoutNs), nil, true
	if ro.timeout <= 0 {
		ro.timeout = 20 * time.Minute
	}
	r, smp, spent := startSample(ro, programOf(ro), s.cg, s.conf)
	if r != nil {
		r.wait(s.stop)
		smp.Set(wire.WallNs, time.Since(r.start).Nanoseconds())
		spent = r.clean(s.conf)
		smp = r.classify(smp)
	}
	log, conns, ended := cl.finish(5 * time.Second)
	if !ended {
		spent = true // a process of ours still holds the log: it outlived the run
	}
	c.WallNs = smp.Fig(wire.WallNs)
	l := countLogOf{text: log, conns: conns, pid: pidOf(r)}
	l.lostOnStderr = r != nil && r.errTail != nil && r.errTail.marked(l.pid)
	got, gate := countOf(c, smp, l, region, !o.count.NoCacheSim)
	return checkAgrees(got, smp.Check, timedCheck), gate, spent
}

// connsFailure says why a run whose log was not one connection has no
// count.
func connsFailure(conns int, log string) string {
	if conns == 0 {
		return "valgrind never connected to its log socket" + tail(log, 400)
	}
	return fmt.Sprintf("valgrind's log socket was connected to %d times, want once: the program exec'd or connected to it itself, "+
		"so a summary on it cannot be told from a forged one (a counted program must not exec)", conns)
}

func pidOf(r *sampleRun) int {
	if r == nil {
		return 0
	}
	return r.pid
}

// countLogOf is what a counted run left on its log socket: the first
// connection's text, how many connections were made, and the pid started;
// lostOnStderr: a line of Valgrind's for that pid was seen anywhere on the
// run's stderr (the whole stream, not only its tail).
type countLogOf struct {
	text         string
	conns        int
	pid          int
	lostOnStderr bool
}

// countOf makes the run's count from how it ended and Valgrind's log.
func countOf(c wire.Count, smp wire.Sample, l countLogOf, region, cacheSim bool) (wire.Count, string) {
	switch smp.Status {
	case wire.StatusTimeout, wire.StatusOOM, wire.StatusRunFailed:
		c.Status, c.Detail = wire.CountFailed, "the counted run: "+smp.Detail+valgrindSaid(l.text, smp.StderrTail)
		return c, ""
	}
	if l.conns != 1 {
		c.Status, c.Detail = wire.CountFailed, connsFailure(l.conns, l.text+valgrindSaid("", smp.StderrTail))
		return c, ""
	}
	if lost := logLost(smp.StderrTail, l.pid, l.lostOnStderr); lost != "" {
		c.Status, c.Detail = wire.CountFailed, lost
		return c, ""
	}
	got, err := parseCountLog(l.text, l.pid, cacheSim)
	if err != nil {
		c.Status, c.Detail = wire.CountFailed, err.Error()
		return c, ""
	}
	got.Scope, got.WallNs = c.Scope, c.WallNs
	gate := ""
	if region {
		gate = gateVerdict(l.text, l.pid)
	}
	return got, gate
}

// logLost says why a run's log cannot be Valgrind's ("" when it can):
// Valgrind wrote on the program's stderr. It does that when a write to its
// log socket fails, which is what follows a program that sends a summary of
// its own on the socket and shuts it (send and shutdown are not refused on
// Valgrind's descriptors): tried on the host, the forged 4242 went to the
// socket and Valgrind's own "Collected : 18183445" to stderr. The whole of
// stderr is watched (seen), not only the tail kept: a child that floods
// stderr after Valgrind's lines does not hide them. A program that points
// its stderr elsewhere first is not caught here (docs/security.md).
func logLost(stderr string, pid int, seen bool) string {
	if pid <= 0 || !seen && !strings.Contains(stderr, fmt.Sprintf("==%d== ", pid)) {
		return ""
	}
	return fmt.Sprintf("valgrind (pid %d) wrote its log on the program's stderr: its log socket was cut during the run (the program sent on it or shut it), so what the socket carried is not taken for its summary", pid)
}

// valgrindSaid is the end of Valgrind's log (an unsupported instruction,
// its own crash) and of the program's stderr, for a failed count's detail.
func valgrindSaid(log, stderr string) string {
	var b strings.Builder
	var key []string
	for _, line := range strings.Split(log, "\n") {
		for _, k := range []string{"unhandled instruction", "Assertion", "Process terminating", "valgrind: ", "Illegal"} {
			if strings.Contains(line, k) && len(key) < 6 {
				key = append(key, strings.TrimSpace(line))
				break
			}
		}
	}
	if len(key) > 0 {
		b.WriteString("; valgrind said: " + strings.Join(key, " | "))
	} else if t := tail(log, 800); t != "" {
		b.WriteString("; valgrind's log: " + t)
	}
	if t := tail(stderr, 400); t != "" {
		b.WriteString("; stderr: " + t)
	}
	return b.String()
}

// valgrindVersion records `valgrind --version` once, "" when there is none.
func (s *session) valgrindVersion() {
	if s.env.Valgrind != "" || s.valgrindChecked {
		return
	}
	s.valgrindChecked = true
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// As a bench is run, never as root: valgrind is the toolchain image's.
	cmd := exec.CommandContext(ctx, valgrindPath, "--version")
	cmd.Env, cmd.SysProcAttr = []string{"PATH=/usr/local/bin:/usr/bin:/bin"}, s.conf.sysProcAttr()
	out, err := cmd.Output()
	if err == nil {
		s.env.Valgrind = strings.TrimSpace(string(out))
	}
}

// withoutASLR runs fork with the calling thread's personality set to
// ADDR_NO_RANDOMIZE, which the child inherits and keeps across exec, and
// puts the thread's personality back after. The seccomp filter allows
// exactly that value (and 0 and the query).
func withoutASLR(fork func() (int, error)) func() (int, error) {
	const addrNoRandomize = 0x0040000
	return func() (int, error) {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		old, _, e := syscall.RawSyscall(syscall.SYS_PERSONALITY, addrNoRandomize, 0, 0)
		if e != 0 {
			return 0, fmt.Errorf("personality(ADDR_NO_RANDOMIZE): %w", e)
		}
		defer syscall.RawSyscall(syscall.SYS_PERSONALITY, old, 0, 0)
		return fork()
	}
}
