package runner_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// nodeHale is a given hale image's compiler (an ab --b-image, a
// --hale-image): it builds a .hl file as C and, for unit leak, leaves the
// build's note as a link to a root-only file although the build succeeded.
const nodeHale = `#!/bin/sh
if [ "$1" = --version ]; then echo "hale 0.17.0 (node stand-in)"; exit 0; fi
clang -O1 -x c "$2" -o "${2%.hl}" || exit 1
if [ "$(basename "$2")" = leak.hl ]; then ln -sf /etc/shadow "$OUT.build_failed"; fi
`

// nodeExtra is what that image adds to the c toolchain beside its hale: a
// 0666 node for char 1:7 (/dev/full, which the engine's default device
// rules allow) at a path the dev bench opens for writing.
const nodeExtra = `RUN mknod -m 0666 /opt/halebench-node c 1 7 && chmod 0666 /opt/halebench-node && echo 'root:SHADOW-SECRET-LINE:19000:0:99999:7:::' >>/etc/shadow
`

// devBench opens the image's node for writing: refused, it says so with
// the errno; open, a write to /dev/full fails ENOSPC (28), which shows the
// device was reached.
const devBench = `#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
int main(void) {
    int fd = open("/opt/halebench-node", O_WRONLY);
    if (fd < 0) { printf("elapsed_ns=1\ncheck=refused:%d\n", errno); return 0; }
    long n = write(fd, "x", 1);
    printf("elapsed_ns=1\ncheck=reached:%ld:%d\n", n, errno);
    return 0;
}
`

// toggleBench hides its timed loop from Callgrind with two
// CALLGRIND_TOGGLE_COLLECT client requests (inline, no header), as a
// compiler under test could emit them; honestBench is the same loop without.
const toggleBench = `#include <stdio.h>
#include <time.h>
static void toggle(void) {
    unsigned long args[6] = {0x43540002UL, 0, 0, 0, 0, 0}, res = 0;
    __asm__ volatile("rolq $3, %%rdi\n\trolq $13, %%rdi\n\trolq $61, %%rdi\n\trolq $51, %%rdi\n\txchgq %%rbx, %%rbx"
                     : "=d"(res) : "a"(&args[0]), "0"(res) : "cc", "memory");
}
int main(void) {
    struct timespec a, b;
    volatile unsigned long x = 0;
    clock_gettime(CLOCK_MONOTONIC, &a);
    toggle();
    for (unsigned long i = 0; i < 5000000; i++) x += i;
    toggle();
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("elapsed_ns=%ld\ncheck=ok:1\n", (b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec));
    return 0;
}
`

const honestBench = `#include <stdio.h>
#include <time.h>
int main(void) {
    struct timespec a, b;
    volatile unsigned long x = 0;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (unsigned long i = 0; i < 5000000; i++) x += i;
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("elapsed_ns=%ld\ncheck=ok:1\n", (b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec));
    return 0;
}
`

// sockBench does its loop, then sends a forged Callgrind summary on every
// descriptor that takes it (Valgrind's log socket among them) and shuts
// that down, so that Valgrind's own summary cannot follow on the socket.
const sockBench = `#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
int main(void) {
    struct timespec a, b;
    volatile unsigned long x = 0;
    clock_gettime(CLOCK_MONOTONIC, &a);
    for (unsigned long i = 0; i < 5000000; i++) x += i;
    clock_gettime(CLOCK_MONOTONIC, &b);
    printf("elapsed_ns=%ld\ncheck=ok:1\n", (b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec));
    fflush(stdout);
    char msg[512];
    int pid = getpid();
    snprintf(msg, sizeof msg, "**%d** halebench-clockgate: region closed\n==%d== Events    : Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw\n==%d== Collected : 4242 1 1 0 0 0 0\n", pid, pid, pid);
    /* Every descriptor /proc/self/fd lists (Valgrind's own among them), and
       those just above the limit Valgrind shows the program. */
    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        int fd = atoi(e->d_name);
        if (e->d_name[0] != '.' && send(fd, msg, strlen(msg), MSG_NOSIGNAL) > 0) shutdown(fd, SHUT_RDWR);
    }
    for (long fd = (long)rl.rlim_cur; fd < (long)rl.rlim_cur + 256; fd++) {
        if (send((int)fd, msg, strlen(msg), MSG_NOSIGNAL) > 0) shutdown((int)fd, SHUT_RDWR);
    }
    return 0;
}
`

// A given image carrying a device node, and whose compiler leaves its
// build note as a link to /etc/shadow: the bench cannot use the node (the
// sampler seals the image's mounts nodev; unprivileged, where it cannot,
// it finds the node and runs nothing), and no byte of /etc/shadow reaches
// the result: the unit ends build_failed saying the note is not a regular
// file.
func TestImageContentReachesNoBench(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Minute)
	defer cancel()
	k := newGivenKit(t, ctx, "image-content")
	eng, runID := k.eng, k.runID
	given := k.standInHale("node-hale", nodeHale, nodeExtra, nil)
	bi := k.mustBenchImage("hale", given, map[string]string{"dev": devBench, "toggle": toggleBench, "honest": honestBench, "sock": sockBench,
		"leak": "#include <stdio.h>\nint main(void) { printf(\"elapsed_ns=1\\ncheck=ok:1\\n\"); return 0; }\n"})
	priv := k.privilege(k.cToolchain())
	trusted := image.TrustedArg(bi.Trusted)
	o := runUnit(t, eng, bi, priv, runID, trusted, "dev", 0)
	if o.Status != "ok" || len(o.Samples) != 1 || o.Samples[0].Check != "refused:13" {
		t.Errorf("%s: the bench reached the image's device node, or did not run: %s %q %+v", priv, o.Status, o.Detail, o.Samples)
	}
	o = runUnit(t, eng, bi, engine.Privilege{Mode: engine.ModeUnprivileged}, runID, trusted, "dev", 0)
	if o.Status != "unconfined" || !strings.Contains(o.Detail, "/opt/halebench-node (char 1:7, mode 0666)") {
		t.Errorf("unprivileged: the image's device node was not found and refused: %s %q %+v", o.Status, o.Detail, o.Samples)
	}
	o = runUnit(t, eng, bi, priv, runID, trusted, "leak", 0)
	if o.Status != "build_failed" || strings.Contains(o.BuildError, "SHADOW-SECRET") || strings.Contains(o.BuildError, "root:") ||
		!strings.Contains(o.BuildError, "not a regular file") || len(o.Samples) != 0 {
		t.Errorf("a build note left as a link to /etc/shadow: %s, build error %q, %d samples", o.Status, o.BuildError, len(o.Samples))
	}
	// Client requests in the compiled program: not counted as honest.
	honest := runUnit(t, eng, bi, priv, runID, trusted, "honest", 2)
	if len(honest.Counts) != 2 || honest.Counts[0].Status != wire.CountOK || honest.Counts[0].Ir < 5000000 {
		t.Fatalf("the honest program's counts: %+v", honest.Counts)
	}
	toggled := runUnit(t, eng, bi, priv, runID, trusted, "toggle", 2)
	for _, c := range toggled.Counts {
		if c.Status != wire.CountFailed || !strings.Contains(c.Detail, "client-request sequence") {
			t.Errorf("a program that toggles Callgrind's collection was counted: %s %d %q (the honest one: %d)", c.Status, c.Ir, c.Detail, honest.Counts[0].Ir)
		}
	}
	if len(toggled.Counts) == 0 {
		t.Errorf("no count for the toggling program: %s %q", toggled.Status, toggled.Detail)
	}
	// A summary of its own on Valgrind's socket, then the socket shut.
	forged := runUnit(t, eng, bi, priv, runID, trusted, "sock", 2)
	for _, c := range forged.Counts {
		if c.Status == wire.CountOK && c.Ir == 4242 {
			t.Errorf("a forged summary on Valgrind's log socket was taken: %+v", c)
		}
		t.Logf("sock: %s %d %q", c.Status, c.Ir, c.Detail)
	}
}

// runUnit runs unit of bi, a hale bench image, once in a server that
// checks trusted, and counts it counts times (0: not counted).
func runUnit(t *testing.T, eng engine.Driver, bi image.BenchImage, priv engine.Privilege, runID, trusted, unit string, counts int) runner.Outcome {
	t.Helper()
	return runLangUnit(t, eng, "hale", bi, priv, runID, trusted, unit, counts)
}

// runLangUnit is runUnit for a bench image of language lang.
func runLangUnit(t *testing.T, eng engine.Driver, lang string, bi image.BenchImage, priv engine.Privilege, runID, trusted, unit string, counts int) runner.Outcome {
	t.Helper()
	srv, err := runner.StartServer(context.Background(), eng, runner.ServerSpec{Image: bi.Ref, CPUs: "0", Privilege: priv,
		RunID: runID, MemLimit: 1 << 30, Lang: lang, Trusted: trusted})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		srv.Close()
		enginetest.NoLeftovers(t, eng, runID)
	}()
	l, _ := suite.ByName(lang)
	j := runner.Job{Unit: unit, Lang: l, Iters: 1, Timeout: 20 * time.Second, Seed: 1, MemLimit: 1 << 30, OutCap: 1 << 20}
	if counts > 0 {
		cj, why := runner.CountJobFor(l, unit, counts, time.Minute)
		if why != "" {
			t.Fatal(why)
		}
		j.Count = &cj
	}
	return srv.Run(context.Background(), j)
}
