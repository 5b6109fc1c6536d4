package suite

import (
	"strings"
	"testing"
)

// On arm64 every counted build targets armv8-a, spelled each compiler's
// way, and none keeps an x86-64 target; on amd64 the table is unchanged.
func TestForArch(t *testing.T) {
	for _, l := range All {
		if got := l.ForArch("amd64"); got.CountCompile != l.CountCompile || got.CountTarget != l.CountTarget {
			t.Errorf("%s on amd64 changed: %q (%s)", l.Name, got.CountCompile, got.CountTarget)
		}
		a := l.ForArch("arm64")
		if strings.Contains(a.CountCompile, "x86-64") || strings.Contains(a.CountCompile, "GOAMD64") {
			t.Errorf("%s on arm64 still targets x86-64: %q", l.Name, a.CountCompile)
		}
		if l.CountTarget != "" && a.CountTarget != "armv8-a" {
			t.Errorf("%s on arm64 records target %q, want armv8-a", l.Name, a.CountTarget)
		}
	}
	c, _ := ByName("c")
	if got := c.ForArch("arm64").CountCompile; !strings.Contains(got, "-march=armv8-a") {
		t.Errorf("C's counted build on arm64: %q", got)
	}
}
