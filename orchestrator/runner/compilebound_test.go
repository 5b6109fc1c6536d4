package runner_test

import (
	"context"
	"strings"
	"testing"
	"time"
)

// hugeBench is a few bytes of C whose compile writes a 1.5 GiB object and
// binary (an initialised 1.5 GiB array).
const hugeBench = `#include <stdio.h>
volatile char big[1536u << 20] = {1};
int main(int argc, char **argv) { (void)argv; printf("elapsed_ns=1\ncheck=%d\n", big[argc << 20]); return 0; }
`

// A bench whose compile writes 1.5 GiB is stopped at the cap for one file
// and is build_failed saying so; its sibling builds; the bench image holds
// nothing of it.
func TestCompileDiskIsBounded(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	k := newGivenKit(t, ctx, "compile-bound")
	eng, runID := k.eng, k.runID
	start := time.Now()
	bi := k.mustBenchImage("c", "", map[string]string{"huge": hugeBench,
		"small": "#include <stdio.h>\nint main(void) { printf(\"elapsed_ns=1\\ncheck=%d\\n\", 7); return 0; }\n"})
	t.Logf("bench image in %s", time.Since(start).Round(time.Second))
	out, err := eng.Command(ctx, bi.Ref, runID, []string{"sh", "-c", "ls -la /bench/bin; du -sk /bench/bin; cat /bench/bin/huge.build_failed; true"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", out)
	if !strings.Contains(out, "the compile of huge wrote a file over the 256 MiB cap for one file and was stopped") {
		t.Errorf("the huge compile's note does not say it was stopped at the cap:\n%s\nbuild log:\n%s", out, k.log.String())
	}
	if !strings.Contains(out, " small\n") || strings.Contains(out, " huge\n") {
		t.Errorf("want small built and no huge binary:\n%s", out)
	}
}

// setsidHale is a given hale whose compile of a.hl leaves a setsid child
// (outside timeout's process group) and whose compile of b.hl, the next,
// says whether that child still runs.
const setsidHale = `#!/bin/sh
if [ "$1" = --version ]; then echo "hale 0.17.0 (setsid stand-in)"; exit 0; fi
case "$2" in
*/a.hl) setsid sh -c 'echo $$ >/bench/bin/leftover.pid; exec sleep 1000' </dev/null >/dev/null 2>&1 &
        sleep 1 ;;
*/b.hl) if kill -0 "$(cat /bench/bin/leftover.pid)" 2>/dev/null; then echo alive; else echo gone; fi >/bench/bin/leftover.report ;;
esac
exec /usr/bin/clang -O1 -x c "$2" -o "${2%.hl}"
`

// No process a compile leaves — a setsid child included, which timeout's
// process group kill does not reach — runs on into the next compile.
func TestCompileLeavesNoProcess(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	k := newGivenKit(t, ctx, "compile-setsid")
	eng, runID := k.eng, k.runID
	given := k.standInHale("setsid-hale", setsidHale, "", nil)
	src := "int main(void) { return 0; }\n"
	bi := k.mustBenchImage("hale", given, map[string]string{"a": src, "b": src})
	out, err := eng.Command(ctx, bi.Ref, runID, []string{"sh", "-c", "cat /bench/bin/leftover.report; true"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(out) != "gone" {
		t.Fatalf("the setsid child of a's compile, seen from b's: %q, want gone", out)
	}
}
