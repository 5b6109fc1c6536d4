//go:build linux

package main

import (
	"strings"
	"testing"

	"github.com/hale-lang/halebench/images/sampler/wire"
)

func TestElapsedHeldToWall(t *testing.T) {
	ok := wire.Output{Status: wire.StatusOK, ElapsedNs: 1000}
	if got := heldToWall(ok, 1000); got.Status != wire.StatusOK {
		t.Errorf("elapsed equal to the wall time: %+v", got)
	}
	if got := heldToWall(ok, 999); got.Status != wire.StatusBadOutput || got.ElapsedNs != 0 {
		t.Errorf("elapsed over the wall time: %+v", got)
	}
	bad := wire.Output{Status: wire.StatusNoElapsed}
	if got := heldToWall(bad, 1); got != bad {
		t.Errorf("a failed parse changed: %+v", got)
	}
}

func TestCaptureKeepsOnlyTheCap(t *testing.T) {
	var c capture
	c.read(strings.NewReader(strings.Repeat("x", 100)+"\nelapsed_ns=1\n"), 50, nil)
	if c.buf.Len() != 50 || c.dropped != 101-50+13 {
		t.Fatalf("kept %d, dropped %d", c.buf.Len(), c.dropped)
	}
}

// The ready hook fires once, at the first whole line that says "ready",
// never at the tail of a longer line cut by the reader's buffer.
func TestCaptureReady(t *testing.T) {
	for _, tc := range []struct {
		out  string
		want int
	}{
		{"ready\n", 1},
		{"not ready\nready\nready\nelapsed_ns=1\n", 1},
		{"  ready  \n", 1},
		{"ready", 1},
		{"readyx\nalready\n", 0},
		{strings.Repeat("x", 70<<10) + "ready\n", 0},
	} {
		var c capture
		n := 0
		c.read(strings.NewReader(tc.out), 1<<20, func() { n++ })
		if n != tc.want {
			t.Errorf("%.20q…: ready %d times, want %d", tc.out, n, tc.want)
		}
	}
}

func TestFormatCPUList(t *testing.T) {
	cases := map[string][]int{"": nil, "1": {1}, "0-3": {3, 1, 0, 2}, "0-1,4,6-7": {0, 1, 4, 6, 7}}
	for want, in := range cases {
		if got := formatCPUList(in); got != want {
			t.Errorf("formatCPUList(%v) = %q, want %q", in, got, want)
		}
	}
}

func TestFieldValue(t *testing.T) {
	text := "oom_kill_disable 0\nunder_oom 0\noom_kill 3\n"
	if fieldValue(text, "oom_kill") != 3 || fieldValue(text, "missing") != 0 {
		t.Fatal("fieldValue")
	}
}

func TestDedupEnv(t *testing.T) {
	got := strings.Join(dedupEnv([]string{"HOME=/root", "A=1", "HOME=/tmp", "B=2", "A=3"}), " ")
	if got != "HOME=/tmp B=2 A=3" {
		t.Fatalf("dedupEnv = %q", got)
	}
}
