package image

import (
	"strings"
	"testing"

	"github.com/hale-lang/halebench/images/sampler/wire"
)

// A --no-build run takes a found image's trusted record from its label: an
// empty label, or one that names only the clock gate, once meant "check
// nothing" before the sampler ran as root; both are refused now.
func TestFoundRecordFailsClosed(t *testing.T) {
	sum := strings.Repeat("a", 64)
	for _, label := range []string{"", wire.ClockGatePath + "=" + sum, "/elsewhere=" + sum} {
		if got, err := foundRecord(label); err == nil || !strings.Contains(err.Error(), "no digest for the sampler") {
			t.Errorf("label %q: %v, %v, want a refusal", label, got, err)
		}
	}
	if _, err := foundRecord("not a record"); err == nil {
		t.Error("a malformed label was taken")
	}
	got, err := foundRecord(SamplerPath + "=" + sum + "," + wire.ClockGatePath + "=" + sum)
	if err != nil || got[SamplerPath] != sum || got[wire.ClockGatePath] != sum {
		t.Errorf("a whole record: %v, %v", got, err)
	}
}
