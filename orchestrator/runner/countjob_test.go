package runner

import (
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// Every language either is counted (a counted build for the fixed target,
// or its source) or says why not.
func TestEveryLanguageIsCountedOrSaysWhy(t *testing.T) {
	for _, l := range suite.All {
		cj, why := CountJobFor(l, "fn_call", 2, 0)
		if why != "" {
			if l.Name != "node" {
				t.Errorf("%s is not counted: %s", l.Name, why)
			}
			continue
		}
		if l.Name == "node" {
			t.Error("node is counted")
		}
		if cj.Runs != 2 || time.Duration(cj.TimeoutNs) != DefaultCountTimeout || cj.BuildFailed == "" {
			t.Errorf("%s: %+v", l.Name, cj)
		}
		if l.Compile != "" && (cj.Argv[0] != "/bench/bin/fn_call.counted" || cj.BuildFailed != "/bench/bin/fn_call.counted.build_failed" ||
			l.CountTarget != "x86-64-v3" || strings.Contains(l.CountCompile, "native")) {
			t.Errorf("%s: argv %q, build failed %q, target %q, compile %q", l.Name, cj.Argv, cj.BuildFailed, l.CountTarget, l.CountCompile)
		}
		if cj.Region != (l.Name == "c" || l.Name == "rust" || l.Name == "hale") {
			t.Errorf("%s: region %v", l.Name, cj.Region)
		}
	}
	py, _ := suite.ByName("python")
	cj, _ := CountJobFor(py, "fn_call", 1, time.Minute)
	if strings.Join(cj.Argv, " ") != "python3 -s -P /bench/src/fn_call.py" || cj.Region || cj.TimeoutNs != time.Minute.Nanoseconds() {
		t.Errorf("python: %+v (it must read PYTHONHASHSEED: no -I)", cj)
	}
	if s, _ := suite.ByName("c"); s.CountScope != wire.ScopeRegion {
		t.Errorf("c scope %q", s.CountScope)
	}
}

// A job's deadline covers its counted runs, and a region job's re-run over
// the whole process.
func TestJobDeadlineGrowsWithCounts(t *testing.T) {
	j := Job{Iters: 5, Warmup: 1, Timeout: time.Minute}
	plain := JobDeadline(j)
	j.Count = &wire.CountJob{Runs: 2, TimeoutNs: (20 * time.Minute).Nanoseconds()}
	if got := JobDeadline(j); got < plain+3*20*time.Minute {
		t.Fatalf("deadline with 2 counted runs of 20 min: %s (without: %s)", got, plain)
	}
}

// A counted run's timeout grows with the program's native time, from a
// floor that covers Valgrind's start-up; a later run's, with the first
// counted run's time.
func TestCountTimeoutFollowsTheProgram(t *testing.T) {
	for _, c := range []struct {
		native, want time.Duration
	}{
		{0, CountFloor},
		{time.Millisecond, CountFloor},
		{time.Second, CountSlowdown * CountMargin * time.Second},
		{5 * time.Second, CountSlowdown * CountMargin * 5 * time.Second},
	} {
		if got := CountTimeout(c.native); got != c.want {
			t.Errorf("CountTimeout(%s) = %s, want %s", c.native, got, c.want)
		}
	}
	if got := CountTimeoutAfter(time.Second); got != CountFloor {
		t.Errorf("after a 1 s counted run: %s, want the floor", got)
	}
	if got := CountTimeoutAfter(time.Minute); got != CountMargin*time.Minute {
		t.Errorf("after a 1 min counted run: %s", got)
	}
}
