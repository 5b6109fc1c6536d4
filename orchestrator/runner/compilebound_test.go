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
	"github.com/hale-lang/halebench/orchestrator/subject"
	"github.com/hale-lang/halebench/orchestrator/suite"
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
	eng := enginetest.Connect(t)
	bk := enginetest.BuildKit(t, eng)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	runID := "test-compile-bound-" + time.Now().Format("150405.000")
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "huge.c"), []byte(hugeBench), 0o644)
	os.WriteFile(filepath.Join(dir, "small.c"), []byte("#include <stdio.h>\nint main(void) { printf(\"elapsed_ns=1\\ncheck=%d\\n\", 7); return 0; }\n"), 0o644)
	var log bytes.Buffer
	c, _ := suite.ByName("c")
	start := time.Now()
	bi, err := image.New(eng, bk, &log, image.Options{RunID: runID}).BenchImage(ctx, c, []image.Source{
		{Unit: "huge", Path: filepath.Join(dir, "huge.c")}, {Unit: "small", Path: filepath.Join(dir, "small.c")}})
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	t.Cleanup(func() { _ = eng.RemoveImage(context.Background(), bi.Ref) })
	t.Logf("bench image in %s", time.Since(start).Round(time.Second))
	out, err := eng.Command(ctx, bi.Ref, runID, []string{"sh", "-c", "ls -la /bench/bin; du -sk /bench/bin; cat /bench/bin/huge.build_failed; true"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", out)
	if !strings.Contains(out, "the compile of huge wrote a file over the 256 MiB cap for one file and was stopped") {
		t.Errorf("the huge compile's note does not say it was stopped at the cap:\n%s\nbuild log:\n%s", out, log.String())
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
	eng := enginetest.Connect(t)
	bk := enginetest.BuildKit(t, eng)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	runID := "test-compile-setsid-" + time.Now().Format("150405.000")
	var log bytes.Buffer
	c, _ := suite.ByName("c")
	tc, err := image.New(eng, bk, &log, image.Options{RunID: runID}).Toolchain(ctx, c)
	if err != nil || tc.Status != image.Available {
		t.Fatalf("c toolchain %+v: %v\n%s", tc, err, log.String())
	}
	ref := "halebench-test/setsid-hale:" + strings.ReplaceAll(runID, ".", "-")
	dir := t.TempDir()
	for name, data := range map[string]string{"Dockerfile": "ARG TC\nFROM ${TC}\nCOPY hale /usr/local/bin/hale\n", "hale": setsidHale} {
		os.WriteFile(filepath.Join(dir, name), []byte(data), 0o755)
	}
	if _, err := bk.Build(ctx, engine.Build{Context: dir, Dockerfile: dir, Args: map[string]string{"TC": tc.Ref}, Image: ref, What: "the setsid stand-in"}); err != nil {
		t.Fatalf("building the stand-in: %v", err)
	}
	t.Cleanup(func() { _ = eng.RemoveImage(context.Background(), ref) })
	src := t.TempDir()
	var srcs []image.Source
	for _, u := range []string{"a", "b"} {
		os.WriteFile(filepath.Join(src, u+".hl"), []byte("int main(void) { return 0; }\n"), 0o644)
		srcs = append(srcs, image.Source{Unit: u, Path: filepath.Join(src, u+".hl")})
	}
	h, _ := suite.ByName("hale")
	bi, err := image.New(eng, bk, &log, image.Options{RunID: runID, Subject: subject.Build{Image: ref}}).BenchImage(ctx, h, srcs)
	if err != nil {
		t.Fatalf("%v\n%s", err, log.String())
	}
	t.Cleanup(func() { _ = eng.RemoveImage(context.Background(), bi.Ref) })
	out, err := eng.Command(ctx, bi.Ref, runID, []string{"sh", "-c", "cat /bench/bin/leftover.report; true"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(out) != "gone" {
		t.Fatalf("the setsid child of a's compile, seen from b's: %q, want gone", out)
	}
}
