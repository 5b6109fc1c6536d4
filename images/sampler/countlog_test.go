//go:build linux

package main

import (
	"os"
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
	c, err := parseCountLog(log, pid)
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
	pc, err := parseCountLog(proc, fixturePID(t, proc))
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
		if c, err := parseCountLog(l, pid); err == nil {
			t.Errorf("%s: parsed %+v, want an error", name, c)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// A client request's line ("**PID** ...", what VALGRIND_PRINTF in a bench
// writes) is not Valgrind's summary, whatever it says.
func TestClientRequestLinesAreNotTheSummary(t *testing.T) {
	log := readFixture(t, "callgrind-region.log")
	pid := fixturePID(t, log)
	forged := log + "**" + itoa(pid) + "** Collected : 1 1 1 1 1 1 1 1 1\n"
	want, _ := parseCountLog(log, pid)
	got, err := parseCountLog(forged, pid)
	if err != nil || got != want {
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
	a := strings.Join(countArgv([]string{"/bench/bin/x.counted"}, true), " ")
	for _, want := range []string{"--tool=callgrind", "--collect-atstart=no", "--cache-sim=yes", "--I1=32768,8,64",
		"--D1=32768,8,64", "--LL=8388608,16,64", "--fair-sched=yes", "--trace-children=yes", "--callgrind-out-file=/dev/null", "--log-fd=3", "-- /bench/bin/x.counted"} {
		if !strings.Contains(a, want) {
			t.Errorf("argv %q lacks %q", a, want)
		}
	}
	if p := strings.Join(countArgv([]string{"x"}, false), " "); !strings.Contains(p, "--collect-atstart=yes") {
		t.Errorf("process argv %q", p)
	}
	env := strings.Join(countEnv(options{seed: "3", env: []string{"A=1"}}, true), "\n")
	if strings.Contains(env, "HALEBENCH_SEED=3") { // the job's seed never reaches a counted run
		t.Errorf("env carries the job's seed:\n%s", env)
	}
	for _, want := range []string{"LD_PRELOAD=" + wire.ClockGatePath, "PYTHONHASHSEED=0", "HALEBENCH_SEED=" + wire.CountSeed, "A=1", "GLIBC_TUNABLES="} {
		if !strings.Contains(env, want) {
			t.Errorf("env lacks %q:\n%s", want, env)
		}
	}
	if strings.Contains(strings.Join(countEnv(options{}, false), "\n"), "LD_PRELOAD") {
		t.Error("a process run preloads the gate")
	}
}
