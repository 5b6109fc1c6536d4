package runner_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
)

// What a sample leaves — a 256 MiB file in /tmp, a file in /run, a POSIX
// shm file in /dev/shm, a System V shm segment — reaches neither the next
// sample of its job nor the next job, and the container is not spent.
func TestLeftoversDoNotReachTheNextSample(t *testing.T) {
	srv, j := hostileServer(t, false)
	ctx := context.Background()
	j.Unit, j.Iters = "leaver", 2
	o := srv.Run(ctx, j)
	if o.Status != outcome.OK || len(o.Samples) != 2 {
		t.Fatalf("leaver outcome %+v", o)
	}
	for i, s := range o.Samples {
		leftoverChecks(t, fmt.Sprintf("leaver sample %d", i), s.Check)
	}
	o = srv.Run(ctx, j)
	if o.Status != outcome.OK {
		t.Fatalf("the next job's leaver: %+v", o)
	}
	leftoverChecks(t, "the next job's leaver", o.Samples[0].Check)
	if err := srv.Dead(); err != nil {
		t.Fatalf("cleaning the room spent the container: %v", err)
	}
}

// A Python bench that plants a .pth file in a user site-packages (its HOME
// or /tmp, where HOME used to be) does not change a later Python bench.
func TestPlantedPthChangesNoLaterPythonResult(t *testing.T) {
	progs, _ := filepath.Glob("testdata/hostile/python/*.py")
	srv, j := startServer(t, "python", progs, false)
	ctx := context.Background()
	j.Unit = "planter"
	o := srv.Run(ctx, j)
	if o.Status != outcome.OK || !strings.HasPrefix(o.Samples[0].Check, "planted:") || o.Samples[0].Check == "planted:0" {
		// The plant must land somewhere, or this test shows nothing.
		t.Fatalf("planter outcome %+v", o)
	}
	j.Unit, j.Iters = "victim", 2
	o = srv.Run(ctx, j)
	if o.Status != outcome.OK {
		t.Fatalf("victim outcome %+v", o)
	}
	for _, s := range o.Samples {
		if s.Check != "planted:0,usersite:0" {
			t.Fatalf("victim check %q, want planted:0,usersite:0 (a planted .pth ran, or the user site is on)", s.Check)
		}
	}
}

// A sampler whose uid switch fails runs no bench: the job is unconfined,
// with no sample, and the reason is in the report. The impossible uid is
// asked for through the sampler's test-only flag.
func TestFailedUIDSwitchRunsNoBench(t *testing.T) {
	srv, j := startServer(t, "c", []string{"testdata/small.c"}, false, "-test-bench-uid=4294967295")
	j.Unit = "small"
	o := srv.Run(context.Background(), j)
	if o.Status != outcome.Unconfined || len(o.Samples) != 0 || len(o.Warmups) != 0 {
		t.Fatalf("outcome %s (%s) with %d samples, want unconfined and none", o.Status, o.Detail, len(o.Samples))
	}
	if !strings.Contains(o.Detail, "4294967295") || !strings.Contains(strings.Join(o.Env.ConfinementErrors, "\n"), "starting a process as 4294967295") {
		t.Fatalf("the reason is not said: detail %q, errors %q", o.Detail, o.Env.ConfinementErrors)
	}
}

// leftoverChecks reads the leaver's check line: it must have left its
// files in /tmp and /dev/shm and a System V segment (r, /run, only where the
// engine makes /run writable to it), and seen nothing the sample before it
// left.
func leftoverChecks(t *testing.T, what, check string) {
	t.Helper()
	seen, left, _ := strings.Cut(check, ",")
	if seen != "seen:none" {
		t.Fatalf("%s found what the sample before it left: %q", what, check)
	}
	left = strings.TrimPrefix(left, "left:")
	for _, place := range []string{"t", "d", "s"} {
		if !strings.Contains(left, place) {
			t.Fatalf("%s could not leave %q (check %q): the test shows nothing", what, place, check)
		}
	}
	t.Logf("%s: %s", what, check)
}
