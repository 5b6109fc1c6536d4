package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
)

// ab counts by run's rule: bus_dispatch_cross_pool starts a second
// thread, so its counts are count_unstable and its instruction column
// says so instead of a ratio; fn_call's agree, and its ratio is exact.
func TestABThreadedCountIsUnstable(t *testing.T) {
	enginetest.Connect(t)
	// The two benches as the suite has them, with the suite's catalogue
	// entry (two CPUs, the queue's size): a small image to build.
	suite := tinySuite(t, false, "micro/bus_dispatch_cross_pool.c", "micro/fn_call.c")
	cat := `{"benches": {"bus_dispatch_cross_pool": {"cpus": 2, "env": {"LOTUS_BUS_QUEUE_CAP": "64"}}}}`
	if err := os.WriteFile(filepath.Join(suite, "benches", "catalogue.json"), []byte(cat), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"ab", "--suite=" + suite, "--a-suite=" + suite, "--b-suite=" + suite, "--subject=c", "--lang=c",
		"--min-rounds=3", "--max-rounds=3", "--results=" + t.TempDir()}
	code, out, errOut := run(t, nil, args...)
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	rows := map[string][]string{}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 2 && f[1] == "c" { // a row, not a detail line
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
