package runner_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/image"
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

// A given hale image whose compiler leaves the clock gate a link — to a
// host file, to /dev/zero — as the gate is exported to this host and
// hashed: the bench image is refused within seconds, naming the gate, and
// no host file's digest becomes the record (before, the host file's digest
// was the record, and /dev/zero hung the run).
func TestGateLinkIsNotReadOnTheHost(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	k := newGivenKit(t, ctx, "gate-link")
	for i, target := range []string{"/etc/hostname", "/dev/zero"} {
		given := k.standInHale("gate-link-"+string(rune('a'+i)), gateLinkHale,
			"ENV GATE_TARGET="+target+"\nCOPY clang /usr/local/bin/clang\n", map[string]string{"clang": gateLinkClang})
		done := make(chan struct{})
		var bi image.BenchImage
		var err error
		go func() {
			bi, err = k.benchImage("hale", given, map[string]string{"tiny": "int main(void) { return 0; }\n"})
			close(done)
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Minute):
			t.Fatalf("the bench image with the gate a link to %s still building after 10 min (the hash blocked?)", target)
		}
		if err == nil {
			t.Fatalf("the bench image was made with the gate a link to %s: record %v", target, bi.Trusted)
		}
		if !strings.Contains(err.Error(), filepath.Base(wire.ClockGatePath)) || !strings.Contains(err.Error(), "not a regular file (a symlink (-> "+target+"))") {
			t.Fatalf("the refusal does not name the gate as not a regular file: %v", err)
		}
		t.Logf("refused: %v", err)
	}
}
