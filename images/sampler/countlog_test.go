//go:build linux

package main

import (
	"fmt"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/images/sampler/wire"
)

// The fixtures are Valgrind's logs of real counted runs of C fn_call
// (clang/gcc -O3 -march=x86-64-v3) with the sampler's options and the clock
// gate, region and process mode, as the log descriptor got them. The region
// one shows Callgrind leaving out trailing zero totals.
func readFixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParseCountLogReadsCallgrindTotals(t *testing.T) {
	log := readFixture(t, "callgrind-region.log")
	pid := fixturePID(t, log)
	c, err := parseCountLog(log, pid, true)
	if err != nil {
		t.Fatal(err)
	}
	if c.Ir != 70000043 || c.DLmw != 0 || c.ILmr != 2 {
		t.Fatalf("region count %+v, want Ir 70000043, ILmr 2 and the left-out totals 0", c)
	}
	if c.Status != wire.CountOK || c.Ir == 0 || c.Dr == 0 || c.EstCycles != c.EstimatedCycles() || c.EstCycles < c.Ir {
		t.Fatalf("count %+v", c)
	}
	if v := gateVerdict(log, pid); v != "" {
		t.Fatalf("the region run's gate verdict = %q, want delimited", v)
	}
	proc := readFixture(t, "callgrind-process.log")
	pc, err := parseCountLog(proc, fixturePID(t, proc), true)
	if err != nil {
		t.Fatal(err)
	}
	if pc.Ir <= c.Ir {
		t.Fatalf("whole process %d instructions, region %d: the region should be the smaller", pc.Ir, c.Ir)
	}
}

// fixturePID is the pid in a log's "==PID==" prefix.
func fixturePID(t *testing.T, log string) int {
	t.Helper()
	rest, ok := strings.CutPrefix(log, "==")
	if !ok {
		t.Fatalf("log does not start with ==PID==: %.40q", log)
	}
	n := 0
	for _, r := range rest {
		if r < '0' || r > '9' {
			break
		}
		n = n*10 + int(r-'0')
	}
	return n
}

func TestParseCountLogRefusesMissingDuplicateAndMalformed(t *testing.T) {
	log := readFixture(t, "callgrind-region.log")
	pid := fixturePID(t, log)
	var collected string
	for _, l := range strings.Split(log, "\n") {
		if strings.Contains(l, "Collected :") {
			collected = l
		}
	}
	cases := map[string]string{
		"no summary":          strings.ReplaceAll(log, "Collected :", "Kollected :"),
		"two summaries":       log + collected + "\n",
		"malformed total":     strings.Replace(log, collected, strings.Replace(collected, ": ", ": x", 1), 1),
		"a total too many":    strings.Replace(log, collected, collected+" 5 5 5", 1),
		"another pid's lines": strings.ReplaceAll(log, "=="+itoa(pid)+"==", "=="+itoa(pid+1)+"=="),
	}
	for name, l := range cases {
		if c, err := parseCountLog(l, pid, true); err == nil {
			t.Errorf("%s: parsed %+v, want an error", name, c)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// Without the cache simulation Callgrind's summary names Ir alone; the
// count has no misses and no est_cycles, and says what counted it.
func TestParseCountLogWithoutCacheSim(t *testing.T) {
	log := "==9== Events    : Ir\n==9== Collected : 70000043\n==9== \n==9== I   refs:      70,000,043\n"
	c, err := parseCountLog(log, 9, false)
	if err != nil || c.Ir != 70000043 || c.EstCycles != 0 || c.EstimatedCycles() != 0 || c.Instrument != wire.InstrumentCallgrind {
		t.Fatalf("%+v %v", c, err)
	}
	if _, err := parseCountLog(log, 9, true); err == nil {
		t.Fatal("a summary without the cache events was taken for a cache-simulated one")
	}
	full, err := parseCountLog(readFixture(t, "callgrind-region.log"), fixturePID(t, readFixture(t, "callgrind-region.log")), true)
	if err != nil || full.Instrument != wire.InstrumentCallgrindCacheSim || full.EstCycles == 0 {
		t.Fatalf("%+v %v", full, err)
	}
}

// A run whose log socket saw two connections (the program exec'd, or
// connected itself) or none has no count, whatever the first one says.
func TestCountOfWantsOneConnection(t *testing.T) {
	log := readFixture(t, "callgrind-region.log")
	pid := fixturePID(t, log)
	ok := wire.Sample{Status: wire.StatusOK}
	if c, _ := countOf(wire.Count{}, ok, countLogOf{text: log, conns: 1, pid: pid}, true, true); c.Status != wire.CountOK {
		t.Fatalf("one connection: %+v", c)
	}
	for _, n := range []int{0, 2, 3} {
		c, _ := countOf(wire.Count{}, ok, countLogOf{text: log, conns: n, pid: pid}, true, true)
		if c.Status != wire.CountFailed || c.Ir != 0 || !strings.Contains(c.Detail, "log socket") {
			t.Errorf("%d connections: %+v", n, c)
		}
	}
}

// A client request's line ("**PID** ...", what VALGRIND_PRINTF in a bench
// writes) is not Valgrind's summary, whatever it says.
func TestClientRequestLinesAreNotTheSummary(t *testing.T) {
	log := readFixture(t, "callgrind-region.log")
	pid := fixturePID(t, log)
	forged := log + "**" + itoa(pid) + "** Collected : 1 1 1 1 1 1 1 1 1\n"
	want, _ := parseCountLog(log, pid, true)
	got, err := parseCountLog(forged, pid, true)
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Fatalf("with a forged client line: %+v %v, want %+v", got, err, want)
	}
}

func TestGateVerdict(t *testing.T) {
	p := "**7** " + wire.ClockGateLine
	cases := []struct{ log, want string }{
		{p + "region closed\n", ""},
		{"", "did not read CLOCK_MONOTONIC twice"},
		{p + "region closed\n" + p + "region not delimited: a third CLOCK_MONOTONIC read\n", "a third CLOCK_MONOTONIC read"},
		{p + "region not delimited: a second thread\n", "a second thread"},
		{p + "region closed\n" + p + "region closed\n", "closed 2 times"},
		{"**8** " + wire.ClockGateLine + "region closed\n", "did not read"},
	}
	for _, c := range cases {
		got := gateVerdict(c.log, 7)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("gateVerdict(%q) = %q, want %q", c.log, got, c.want)
		}
	}
}

func TestCountArgvPinsTheModel(t *testing.T) {
	a := strings.Join(countArgv([]string{"/bench/bin/x.counted"}, true, true, "127.0.0.1:4000"), " ")
	for _, want := range []string{"--tool=callgrind", "--collect-atstart=no", "--cache-sim=yes", "--I1=32768,8,64",
		"--D1=32768,8,64", "--LL=8388608,16,64", "--fair-sched=yes", "--trace-children=yes", "--callgrind-out-file=/dev/null",
		"--log-socket=127.0.0.1:4000", "-- /bench/bin/x.counted"} {
		if !strings.Contains(a, want) {
			t.Errorf("argv %q lacks %q", a, want)
		}
	}
	p := strings.Join(countArgv([]string{"x"}, false, false, "127.0.0.1:4000"), " ")
	if !strings.Contains(p, "--collect-atstart=yes") || strings.Contains(p, "cache-sim") || strings.Contains(p, "--LL") || strings.Contains(p, "log-fd") {
		t.Errorf("process argv without the cache simulation %q", p)
	}
	// A job's env that would steer the instrument (what catalogue.json
	// could once set): none of it reaches the counted run.
	job := []string{"LOTUS_BUS_QUEUE_CAP=64", "VALGRIND_OPTS=--toggle-collect=main", "LD_PRELOAD=/tmp/x.so",
		"GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2", "GODEBUG=x=1", "MALLOC_ARENA_MAX=1", "HALEBENCH_SEED=3"}
	env := strings.Join(countEnv(options{seed: "3", env: job}, true), "\n")
	for _, bad := range []string{"VALGRIND_OPTS", "/tmp/x.so", "-AVX2", "GODEBUG=x=1", "MALLOC_"} {
		if strings.Contains(env, bad) {
			t.Errorf("the job's %s reached the counted run:\n%s", bad, env)
		}
	}
	if strings.Contains(env, "HALEBENCH_SEED=3") { // the job's seed never reaches a counted run
		t.Errorf("env carries the job's seed:\n%s", env)
	}
	for _, want := range []string{"LD_PRELOAD=" + wire.ClockGatePath, "PYTHONHASHSEED=0", "HALEBENCH_SEED=" + wire.CountSeed, "LOTUS_BUS_QUEUE_CAP=64", "GLIBC_TUNABLES=" + glibcTunables} {
		if !strings.Contains(env, want) {
			t.Errorf("env lacks %q:\n%s", want, env)
		}
	}
	if strings.Contains(strings.Join(countEnv(options{}, false), "\n"), "LD_PRELOAD") {
		t.Error("a process run preloads the gate")
	}
}

// A program that sends its own summary on Valgrind's log socket and shuts
// it: Valgrind's next write fails and it goes on on stderr, where its own
// summary shows the log was cut. Tried on the host (valgrind 3.19): the
// socket carried the forged 4242, stderr "Collected : 18183445".
func TestCountOfRefusesACutLog(t *testing.T) {
	log := readFixture(t, "callgrind-region.log")
	pid := fixturePID(t, log)
	ok := wire.Sample{Status: wire.StatusOK}
	cut := ok
	cut.StderrTail = fmt.Sprintf("sent on 3\n==%d== \n==%d== Events    : Ir\n==%d== Collected : 18183445\n", pid, pid, pid)
	if c, _ := countOf(wire.Count{}, cut, countLogOf{text: log, conns: 1, pid: pid}, true, true); c.Status != wire.CountFailed || c.Ir != 0 || !strings.Contains(c.Detail, "log socket was cut") {
		t.Errorf("a cut log: %+v", c)
	}
	other := ok
	other.StderrTail = "==1== not valgrind's\nwarning: x\n"
	if c, _ := countOf(wire.Count{}, other, countLogOf{text: log, conns: 1, pid: pid}, true, true); c.Status != wire.CountOK {
		t.Errorf("a program's own stderr: %+v", c)
	}
}

// Valgrind's lines on a counted run's stderr are seen wherever they are in
// the whole stream: after a child's unfinished line, split across writes,
// and with a flood after them far past the tail kept; the count then fails.
func TestValgrindLinesOnStderrAreSeenWhole(t *testing.T) {
	const pid = 4321
	b := &tailBuffer{max: 4096, watch: true}
	b.Write([]byte("child's half line"))
	b.Write([]byte("==43"))
	b.Write([]byte("21== Collected : 18183445\n"))
	flood := []byte(strings.Repeat("x", 32<<10))
	for i := 0; i < 64; i++ {
		b.Write(flood)
	}
	if strings.Contains(b.String(), "==4321==") {
		t.Fatal("the flood did not push Valgrind's line out of the tail: the test shows nothing")
	}
	if !b.marked(pid) || b.marked(1) {
		t.Errorf("marks %v, want pid %d only", b.marks, pid)
	}
	log := readFixture(t, "callgrind-region.log")
	fp := fixturePID(t, log)
	smp := wire.Sample{Status: wire.StatusOK, StderrTail: b.String()}
	if c, _ := countOf(wire.Count{}, smp, countLogOf{text: log, conns: 1, pid: fp, lostOnStderr: true}, true, true); c.Status != wire.CountFailed || !strings.Contains(c.Detail, "log socket was cut") {
		t.Errorf("Valgrind's lines seen before a flood: %+v", c)
	}
	plain := &tailBuffer{max: 4096}
	plain.Write([]byte("==4321== x\n"))
	if plain.marked(pid) {
		t.Error("a sample's stderr (not watched) was searched")
	}
}

// Valgrind's gdbserver, which a program could drive through its FIFOs, is
// off in every counted run.
func TestCountArgvHasNoGdbserver(t *testing.T) {
	for _, region := range []bool{true, false} {
		argv := countArgv([]string{"/bench/bin/x"}, region, true, "127.0.0.1:1")
		i := slices.Index(argv, "--vgdb=no")
		if i < 0 || i > slices.Index(argv, "--") {
			t.Errorf("region %v: %q has no --vgdb=no among Valgrind's options", region, argv)
		}
	}
}

// A count whose run printed another check= than the timed build at the
// same seed does not stand; an agreeing one, or a count already failed,
// is left as it is.
func TestCheckAgrees(t *testing.T) {
	ok := wire.Count{Status: wire.CountOK, Ir: 10, Scope: wire.ScopeRegion}
	if c := checkAgrees(ok, "ok:1", "ok:1"); !reflect.DeepEqual(c, ok) {
		t.Errorf("agreeing checks: %+v", c)
	}
	c := checkAgrees(ok, "ok:2", "ok:1")
	if c.Status != wire.CountFailed || c.Ir != 0 || c.Scope != wire.ScopeRegion || !strings.Contains(c.Detail, `check="ok:2", the timed build check="ok:1"`) {
		t.Errorf("differing checks: %+v", c)
	}
	failed := wire.Count{Status: wire.CountFailed, Detail: "x"}
	if c := checkAgrees(failed, "a", "b"); !reflect.DeepEqual(c, failed) {
		t.Errorf("a failed count: %+v", c)
	}
}
