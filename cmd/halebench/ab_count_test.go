package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/ab"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
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

// countLoop is a bench's timed region: 5 M additions between two clock
// reads. A side's program of one bench either runs it as it is or wraps it
// in two Callgrind TOGGLE_COLLECT client requests (the amd64 preamble, then
// xchg %rbx,%rbx; request 0x43540002: no header needed), as a compiler under
// test could emit them to hide its work from the count.
func countLoop(toggle bool) string {
	hide := ""
	if toggle {
		hide = "    hide();\n"
	}
	return `/* 5 M additions timed; the B side of one bench toggles Callgrind's collection around them. */
#include <stdio.h>
#include <time.h>
static void hide(void) {
    volatile unsigned long req[6] = {0x43540002UL, 0, 0, 0, 0, 0};
    unsigned long out = 0;
    __asm__ volatile("rolq $3, %%rdi\n\trolq $13, %%rdi\n\trolq $61, %%rdi\n\trolq $51, %%rdi\n\txchgq %%rbx, %%rbx"
                     : "=d"(out) : "a"(&req[0]), "0"(out) : "cc", "memory");
}
int main(void) {
    struct timespec t0, t1;
    volatile unsigned long sum = 0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
` + hide + `    for (unsigned long i = 0; i < 5000000; i++) sum += i;
` + hide + `    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("elapsed_ns=%ld\ncheck=sum:%lu\n", (t1.tv_sec - t0.tv_sec) * 1000000000L + (t1.tv_nsec - t0.tv_nsec), (unsigned long)sum);
    return 0;
}
`
}

// Check 4 of issue 36, end to end: ab of a program that toggles Callgrind's
// collection in its timed region (side B of bench hidden) against the same
// program without (side A) does not call B faster by instructions: the
// pair's count is count_failed, with no ratio, saying B holds Valgrind's
// client-request sequence. Bench plain, alike on both sides, is the
// control: counted, ratio 1 (to 0.1 %).
func TestABClientRequestIsNotFasterByInstructions(t *testing.T) {
	enginetest.Connect(t)
	sides := [2]string{t.TempDir(), t.TempDir()}
	for i, dir := range sides {
		micro := filepath.Join(dir, "benches", "micro")
		if err := os.MkdirAll(micro, 0o755); err != nil {
			t.Fatal(err)
		}
		for name, src := range map[string]string{"hidden.c": countLoop(i == 1), "plain.c": countLoop(false)} {
			if err := os.WriteFile(filepath.Join(micro, name), []byte(src), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	code, out, errOut := run(t, nil, "ab", "--suite="+sides[0], "--a-suite="+sides[0], "--b-suite="+sides[1], "--subject=c", "--lang=c",
		"--min-rounds=3", "--max-rounds=3", "--json")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	var res ab.Result
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("ab --json: %v\n%s", err, out)
	}
	var grid strings.Builder
	report.ABGrid(&grid, &res)
	benches := map[string]report.ABBench{}
	for _, b := range res.Benches {
		benches[b.Name] = b
	}
	if p := benches["plain"]; p.CountStatus != outcome.OK || p.InstrRatio < 0.999 || p.InstrRatio > 1.001 || p.InstrA < 5000000 {
		t.Fatalf("the control bench was not counted alike on both sides: %s %d/%d ratio %v %q\n%s", p.CountStatus, p.InstrA, p.InstrB, p.InstrRatio, p.Detail, grid.String())
	}
	h := benches["hidden"]
	if h.CountStatus != outcome.CountFailed || h.InstrRatio != 0 || !strings.Contains(h.Detail, "B: ") ||
		strings.Contains(h.Detail, "A: ") || !strings.Contains(h.Detail, "client-request sequence") {
		t.Errorf("B, which toggles Callgrind's collection, was judged by its count: %s, instructions %d/%d, ratio %v, %q\n%s",
			h.CountStatus, h.InstrA, h.InstrB, h.InstrRatio, h.Detail, grid.String())
	}
	for _, l := range strings.Split(grid.String(), "\n") {
		if f := strings.Fields(l); len(f) > 2 && f[0] == "hidden" && f[1] == "c" && f[len(f)-2] != "—" {
			t.Errorf("the grid gives hidden an instruction ratio %q:\n%s", f[len(f)-2], grid.String())
		}
	}
	t.Logf("\n%s", grid.String())
}
