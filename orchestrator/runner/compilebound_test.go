package runner_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/image"
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

// hostileHale is a given hale whose compiles are hostile by unit, one
// bench image holding them all:
//   - a.hl leaves a setsid child (outside timeout's process group), and
//     b.hl, the next compile, says whether that child still runs;
//   - fork.hl forks sleepers until a fork fails (the process cap);
//   - mem.hl starts three processes of 1.5 GiB each, each under the 2 GiB
//     cap of one process, 4.5 GiB together: over the tree's 4 GiB;
//   - stop.hl sends SIGSTOP and SIGKILL to every process of the step not
//     of its own uid (the build script, its memory watch, timeout) and to
//     its grandparent, then compiles honestly; it writes how many signals
//     were delivered.
//
// Every unit is compiled as C by clang afterwards, so each that is not
// stopped builds.
const hostileHale = `#!/bin/sh
if [ "$1" = --version ]; then echo "hale 0.17.0 (hostile stand-in)"; exit 0; fi
case "$2" in
*/a.hl) setsid sh -c 'echo $$ >/bench/bin/leftover.pid; exec sleep 1000' </dev/null >/dev/null 2>&1 &
        sleep 1 ;;
*/b.hl) if kill -0 "$(cat /bench/bin/leftover.pid)" 2>/dev/null; then echo alive; else echo gone; fi >/bench/bin/leftover.report ;;
*/fork.hl) i=0; while [ $i -lt 2000 ]; do sleep 1000 & i=$((i+1)); done; echo "forked $i"; exit 1 ;;
*/stop.hl) n=0; me=$(id -u)
           for p in /proc/[0-9]*; do p=${p#/proc/}; [ "$(awk '/^Uid:/ {print $2}' /proc/$p/status 2>/dev/null)" = "$me" ] && continue
             kill -STOP "$p" 2>/dev/null && n=$((n+1)); kill -KILL "$p" 2>/dev/null && n=$((n+1)); done
           gp=$(awk '/^PPid:/ {print $2}' /proc/$PPID/status); kill -STOP "$gp" 2>/dev/null && n=$((n+1))
           echo "signalled $n" >/bench/bin/stop.report ;;
*/mem.hl) printf '#include <stdlib.h>\n#include <string.h>\n#include <unistd.h>\nint main(void) { size_t n = 1536ul << 20; char *p = malloc(n); if (!p) return 3; memset(p, 1, n); sleep(600); return p[n - 1]; }\n' >/tmp/hog.c
          /usr/bin/clang -O0 -o /tmp/hog /tmp/hog.c || exit 1
          /tmp/hog & /tmp/hog & /tmp/hog & wait; exit 1 ;;
esac
exec /usr/bin/clang -O1 -x c "$2" -o "${2%.hl}"
`

// No process a compile leaves — a setsid child included, which timeout's
// process group kill does not reach — runs on into the next compile; a
// compile that forks past the process cap, or whose processes together
// hold more memory than the tree's cap, is build_failed naming the cap,
// and its siblings build. A compile that signals the build's script and
// its watch reaches neither: the build ends and it builds.
func TestCompileLeavesNoProcess(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	k := newGivenKit(t, ctx, "compile-setsid")
	eng, runID := k.eng, k.runID
	given := k.standInHale("hostile-hale", hostileHale, "", nil)
	src := "int main(void) { return 0; }\n"
	start := time.Now()
	bi := k.mustBenchImage("hale", given, map[string]string{"a": src, "b": src, "fork": src, "mem": src, "stop": src})
	t.Logf("bench image in %s", time.Since(start).Round(time.Second))
	out, err := eng.Command(ctx, bi.Ref, runID, []string{"sh", "-c", "ls /bench/bin; echo; cat /bench/bin/leftover.report; cat /bench/bin/stop.report; for f in /bench/bin/*.build_failed; do echo \"== $f\"; tail -n 3 \"$f\"; done; true"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", out)
	for _, want := range []string{
		"\ngone\n",
		"\nsignalled 0\n",
		"the compile of fork reached the cap of 256 processes and threads for its uid",
		"over the 4096 MiB cap for a compile's whole tree, and was killed",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the bench image lacks %q:\n%s\nbuild log:\n%s", want, out, k.log.String())
		}
	}
	for _, built := range []string{"a\n", "b\n", "stop\n"} {
		if !strings.Contains(out, built) {
			t.Errorf("want %s built:\n%s", strings.TrimSpace(built), out)
		}
	}
}

// stuckHale is a given hale whose image's timeout runs its command with no
// time limit, and whose compile of slow.hl sleeps: the build step's own
// caps are the image's tools, so only halebench's deadline ends it.
const stuckHale = `#!/bin/sh
if [ "$1" = --version ]; then echo "hale 0.17.0 (stuck stand-in)"; exit 0; fi
case "$2" in
*/slow.hl) exec sleep 987 ;;
esac
exec /usr/bin/clang -O1 -x c "$2" -o "${2%.hl}"
`

// A bench-image build that its toolchain image keeps from ending is
// cancelled at halebench's deadline, with a DeadlineError saying so, and
// none of the step's processes runs on. The per-compile cap and the
// margin are made short (test-only knobs) so the deadline is 2 × (1 +
// 10) + 11 + 5 = 38 s: the stand-in's compile never ends, so the test
// waits the whole deadline out.
func TestCompileBuildDeadline(t *testing.T) {
	t.Setenv("HALEBENCH_TEST_COMPILE_SECONDS", "1")
	t.Setenv("HALEBENCH_TEST_BUILD_MARGIN_SECONDS", "5")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	k := newGivenKit(t, ctx, "compile-deadline")
	given := k.standInHale("stuck-hale", stuckHale, "COPY timeout /usr/bin/timeout\n",
		map[string]string{"timeout": "#!/bin/sh\nshift 3\nexec \"$@\"\n"})
	start := time.Now()
	_, err := k.benchImage("hale", given, map[string]string{"slow": "int main(void) { return 0; }\n"})
	t.Logf("build ended in %s: %v", time.Since(start).Round(time.Second), err)
	var dl *image.DeadlineError
	if !errors.As(err, &dl) || !strings.Contains(err.Error(), "ran past halebench's deadline of 38s") {
		t.Fatalf("want the build cancelled at the deadline, got %v\n%s", err, k.log.String())
	}
	if left := processesWith("sleep\x00987"); len(left) > 0 {
		t.Errorf("the cancelled build step's processes still run: %v", left)
	}
}

// processesWith is the pids on this host whose command line holds s.
func processesWith(s string) []string {
	var pids []string
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		if b, err := os.ReadFile("/proc/" + d.Name() + "/cmdline"); err == nil && strings.Contains(string(b), s) {
			pids = append(pids, d.Name())
		}
	}
	return pids
}
