package enginetest

import (
	"fmt"
	"testing"
)

// recorder is a testing.TB that records instead of stopping the test.
type recorder struct {
	testing.TB
	name           string
	fatal, skipped string
}

func (r *recorder) Name() string { return r.name }
func (r *recorder) Helper()      {}
func (r *recorder) Fatalf(f string, a ...any) {
	if r.fatal == "" {
		r.fatal = fmt.Sprintf(f, a...)
	}
}
func (r *recorder) Skipf(f string, a ...any) { r.skipped = fmt.Sprintf(f, a...) }

// A slow test skips, saying how to run it, unless HALEBENCH_SLOW=1; one
// whose name `make test-slow` would not select fails.
func TestMarkingSlow(t *testing.T) {
	for _, c := range []struct {
		name, env   string
		fails, skip bool
	}{
		{"TestSlowThing", "", false, true},
		{"TestSlowThing", "1", false, false},
		{"TestThing", "1", true, false},
		{"TestThing", "", true, true},
	} {
		t.Setenv(SlowEnv, c.env)
		r := &recorder{name: c.name}
		Slow(r)
		if (r.fatal != "") != c.fails || (r.skipped != "") != c.skip {
			t.Errorf("%s with %s=%q: fatal %q, skipped %q", c.name, SlowEnv, c.env, r.fatal, r.skipped)
		}
	}
}
