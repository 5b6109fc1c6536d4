package evidence

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

// verify's table: one row an image, NO where a digest differs, then why;
// the tally on the log; an image that differs is ErrDiffer, none is nil.
func TestWriteVerify(t *testing.T) {
	rows := []Row{
		{Image: "base", Recorded: "sha256:aa", Rebuilt: "sha256:aa", Equal: true},
		{Image: "toolchain c", Recorded: "sha256:bb", Rebuilt: "sha256:cc", Why: []string{"package clang 19.1 → 19.2"}},
	}
	var out, log bytes.Buffer
	if err := WriteVerify(&out, &log, rows, 61*time.Second); !errors.Is(err, ErrDiffer) {
		t.Errorf("one image differs: %v, want ErrDiffer", err)
	}
	for _, want := range []string{"image        recorded   rebuilt    equal\n", "base         sha256:aa  sha256:aa  yes\n", "toolchain c  sha256:bb  sha256:cc  NO\n", "toolchain c: package clang 19.1 → 19.2\n"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
	if log.String() != "verify: 1 of 2 images rebuilt to the recorded digest in 1m1s\n" {
		t.Errorf("tally %q", log.String())
	}
	if err := WriteVerify(&out, &log, rows[:1], time.Second); err != nil {
		t.Errorf("all equal: %v", err)
	}
}
