package ab

import (
	"math"
	"strings"
	"testing"
	"time"
)

// A setting that would make every verdict meaningless is refused as given,
// before any default fills it in.
func TestPrepareRefusesMeaninglessSettings(t *testing.T) {
	for _, c := range []struct {
		name string
		set  Settings
		want string
	}{
		{"threshold 0", Settings{Threshold: 0}, "--threshold=0: want a fraction above 0 and below 1"},
		{"threshold negative", Settings{Threshold: -0.02}, "--threshold=-0.02"},
		{"threshold 1", Settings{Threshold: 1}, "--threshold=1"},
		{"threshold NaN", Settings{Threshold: math.NaN()}, "--threshold=NaN"},
		{"budget", Settings{Threshold: 0.02, Budget: -time.Second}, "--budget=-1s"},
		{"warmup", Settings{Threshold: 0.02, Warmup: -1}, "--warmup=-1"},
		{"rounds", Settings{Threshold: 0.02, MinRounds: 2}, "--min-rounds=2"},
	} {
		t.Run(c.name, func(t *testing.T) {
			o := Options{A: SideSpec{Suite: "../..", What: "A"}, B: SideSpec{Suite: "../..", What: "B"}, Subject: "c", Settings: c.set, Timeout: time.Minute}
			if _, err := Prepare(o); err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want one containing %q", err, c.want)
			}
		})
	}
}
