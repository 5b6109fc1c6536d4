package main

import (
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
)

// ab counts by run's rule: bus_dispatch_cross_pool starts a second
// thread, so its counts are count_unstable and its instruction column
// says so instead of a ratio; fn_call's agree, and its ratio is exact.
func TestABThreadedCountIsUnstable(t *testing.T) {
	enginetest.Connect(t)
	args := []string{"ab", "--suite=../..", "--a-suite=../..", "--b-suite=../..", "--subject=c", "--lang=c",
		"--bench=bus_dispatch_cross_pool,fn_call", "--min-rounds=3", "--max-rounds=3"}
	code, out, errOut := run(t, nil, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	rows := map[string][]string{}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 2 {
			rows[f[0]] = f
		}
	}
	// The instruction column is the one before the verdict.
	instr := func(bench string) string {
		if f := rows[bench]; len(f) > 2 {
			return f[len(f)-2]
		}
		return ""
	}
	if got := instr("bus_dispatch_cross_pool"); got != "unstable" {
		t.Errorf("bus_dispatch_cross_pool's instructions B/A is %q, want unstable:\n%s", got, out)
	}
	if got := instr("fn_call"); got != "1.0000" {
		t.Errorf("fn_call's instructions B/A is %q, want 1.0000 (an A/A of a deterministic program counts alike):\n%s", got, out)
	}
	if !strings.Contains(out, "counts unstable: ") || !strings.Contains(out, "second thread") {
		t.Errorf("the grid does not say why the counts are unstable:\n%s", out)
	}
}
