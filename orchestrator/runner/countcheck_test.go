package runner_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/subject"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// twoFacedHale is a given hale whose timed builds are honest and whose
// counted builds (--target-cpu baseline) are its own: the counted program
// reads the clock twice before the work and skips it.
const twoFacedHale = `#!/bin/sh
if [ "$1" = --version ]; then echo "hale 0.17.0 (two-faced stand-in)"; exit 0; fi
def=
case " $* " in *" baseline "*) def=-DCOUNTED ;; esac
exec /usr/bin/clang -O1 $def -x c "$2" -o "${2%.hl}"
`

const twoFacedBench = `#include <stdio.h>
#include <time.h>
int main(void) {
    struct timespec a, b;
    volatile unsigned long x = 0;
    clock_gettime(CLOCK_MONOTONIC, &a);
#ifdef COUNTED
    clock_gettime(CLOCK_MONOTONIC, &b);
#else
    for (unsigned long i = 0; i < 1000000; i++) x += i;
    clock_gettime(CLOCK_MONOTONIC, &b);
#endif
    printf("elapsed_ns=%ld\ncheck=x:%lu\n", (long)((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec)) + 1, (unsigned long)x);
    return 0;
}
`

// The counted runs of a bench carry their check= line, and one that is not
// the timed runs' makes the cell count_failed, saying so (before, the
// counted build's few instructions were an ok count).
func TestCountedCheckIsCarried(t *testing.T) {
	eng := enginetest.Connect(t)
	bk := enginetest.BuildKit(t, eng)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	runID := "test-count-check-" + time.Now().Format("150405.000")
	var log bytes.Buffer
	c, _ := suite.ByName("c")
	tc, err := image.New(eng, bk, &log, image.Options{RunID: runID}).Toolchain(ctx, c)
	if err != nil || tc.Status != image.Available {
		t.Fatalf("c toolchain %+v: %v\n%s", tc, err, log.String())
	}
	ref := "halebench-test/twofaced-hale:" + strings.ReplaceAll(runID, ".", "-")
	dir := t.TempDir()
	for name, data := range map[string]string{"Dockerfile": "ARG TC\nFROM ${TC}\nCOPY hale /usr/local/bin/hale\n", "hale": twoFacedHale, "twoface.hl": twoFacedBench} {
		os.WriteFile(filepath.Join(dir, name), []byte(data), 0o755)
	}
	if _, err := bk.Build(ctx, engine.Build{Context: dir, Dockerfile: dir, Args: map[string]string{"TC": tc.Ref}, Image: ref, What: "the two-faced stand-in"}); err != nil {
		t.Fatalf("building the stand-in: %v", err)
	}
	t.Cleanup(func() { _ = eng.RemoveImage(context.Background(), ref) })
	h, _ := suite.ByName("hale")
	bi, err := image.New(eng, bk, &log, image.Options{RunID: runID, Subject: subject.Build{Image: ref}}).BenchImage(ctx, h, []image.Source{{Unit: "twoface", Path: filepath.Join(dir, "twoface.hl")}})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	t.Cleanup(func() { _ = eng.RemoveImage(context.Background(), bi.Ref) })
	priv, _, err := eng.ProbePrivilege(ctx, tc.Ref, runID, false)
	if err != nil {
		t.Fatal(err)
	}
	o := runLangUnit(t, eng, "hale", bi, priv, runID, image.TrustedArg(bi.Trusted), "twoface", 2)
	if o.Status != "ok" || len(o.Samples) != 1 || len(o.Counts) != 2 {
		t.Fatalf("the job: %s %q samples %+v counts %+v", o.Status, o.Detail, o.Samples, o.Counts)
	}
	if o.Samples[0].Check != "x:499999500000" || o.Counts[0].Check != "x:0" {
		t.Fatalf("timed check %q, counted %q: want the honest sum timed and x:0 counted", o.Samples[0].Check, o.Counts[0].Check)
	}
	check, timed := judge.TimedCheck(o.Samples)
	s := judge.Summarize(judge.CountCell{Asked: true, Runs: o.Counts, Check: check, HasCheck: timed})
	if s.Status != judge.CountFailed || !strings.Contains(s.Why, `the counted run printed check="x:0", the timed runs check="x:499999500000"`) {
		t.Fatalf("the cell: %s %q (counts %v), want count_failed naming both checks", s.Status, s.Why, s.Ir)
	}
	t.Logf("counted %v instructions; %s: %s", s.Ir, s.Status, s.Why)
}
