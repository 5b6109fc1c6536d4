package runner_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/subject"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// gateLinkClang is a given hale image's C compiler: asked for a shared
// object (the clock gate), it leaves a link to TARGET where the gate goes.
const gateLinkClang = `#!/bin/sh
out=
prev=
for a in "$@"; do [ "$prev" = -o ] && out=$a; prev=$a; done
case " $* " in *" -shared "*) ln -sf "$GATE_TARGET" "$out"; exit 0;; esac
exec /usr/bin/clang "$@"
`

// gateLinkHale compiles a .hl file as C, as an honest stand-in would.
const gateLinkHale = `#!/bin/sh
if [ "$1" = --version ]; then echo "hale 0.17.0 (gate-link stand-in)"; exit 0; fi
exec /usr/bin/clang -O1 -x c "$2" -o "${2%.hl}"
`

const gateLinkDockerfile = `ARG TC
FROM ${TC}
ARG TARGET
ENV GATE_TARGET=${TARGET}
COPY clang /usr/local/bin/clang
COPY hale /usr/local/bin/hale
`

// A given hale image whose compiler leaves the clock gate a link — to a
// host file, to /dev/zero — as the gate is exported to this host and
// hashed: the bench image is refused within seconds, naming the gate, and
// no host file's digest becomes the record (before, the host file's digest
// was the record, and /dev/zero hung the run).
func TestGateLinkIsNotReadOnTheHost(t *testing.T) {
	eng := enginetest.Connect(t)
	bk := enginetest.BuildKit(t, eng)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	runID := "test-gate-link-" + time.Now().Format("150405.000")
	var log bytes.Buffer
	c, _ := suite.ByName("c")
	tc, err := image.New(eng, bk, &log, image.Options{RunID: runID}).Toolchain(ctx, c)
	if err != nil || tc.Status != image.Available {
		t.Fatalf("c toolchain %+v: %v\n%s", tc, err, log.String())
	}
	src := filepath.Join(t.TempDir(), "tiny.hl")
	os.WriteFile(src, []byte("int main(void) { return 0; }\n"), 0o644)
	hale, _ := suite.ByName("hale")
	for i, target := range []string{"/etc/hostname", "/dev/zero"} {
		t.Run(target, func(t *testing.T) {
			ref := "halebench-test/gate-link:" + strings.ToLower(strings.ReplaceAll(runID, ".", "-")) + "-" + string(rune('a'+i))
			dir := t.TempDir()
			for name, data := range map[string]string{"Dockerfile": gateLinkDockerfile, "clang": gateLinkClang, "hale": gateLinkHale} {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := bk.Build(ctx, engine.Build{Context: dir, Dockerfile: dir, Args: map[string]string{"TC": tc.Ref, "TARGET": target}, Image: ref, What: "the gate-link toolchain"}); err != nil {
				t.Fatalf("building the stand-in toolchain: %v", err)
			}
			t.Cleanup(func() { _ = eng.RemoveImage(context.Background(), ref) })
			b := image.New(eng, bk, &log, image.Options{RunID: runID, Subject: subject.Build{Image: ref}})
			done := make(chan struct{})
			var bi image.BenchImage
			go func() { bi, err = b.BenchImage(ctx, hale, []image.Source{{Unit: "tiny", Path: src}}); close(done) }()
			select {
			case <-done:
			case <-time.After(10 * time.Minute):
				t.Fatalf("the bench image with the gate a link to %s still building after 10 min (the hash blocked?)", target)
			}
			if err == nil {
				_ = eng.RemoveImage(context.Background(), bi.Ref)
				t.Fatalf("the bench image was made with the gate a link to %s: record %v", target, bi.Trusted)
			}
			if !strings.Contains(err.Error(), filepath.Base(wire.ClockGatePath)) || !strings.Contains(err.Error(), "not a regular file (a symlink (-> "+target+"))") {
				t.Fatalf("the refusal does not name the gate as not a regular file: %v", err)
			}
			t.Logf("refused: %v", err)
		})
	}
}
