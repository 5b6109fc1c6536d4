//go:build linux

package main

import (
	"strings"
	"testing"

	"github.com/hale-lang/halebench/images/sampler/wire"
)

func TestParseOutput(t *testing.T) {
	cases := []struct {
		name    string
		out     string
		dropped int64
		status  string
		elapsed int64
		check   string
	}{
		{"ok", "elapsed_ns=1234\ncheck=iters:5,acc:7\n", 0, wire.StatusOK, 1234, "iters:5,acc:7"},
		{"ok without check", "noise\nelapsed_ns=9\n", 0, wire.StatusOK, 9, ""},
		{"crlf", "elapsed_ns=10\r\ncheck=a:1\r\n", 0, wire.StatusOK, 10, "a:1"},
		{"none", "hello\n", 0, wire.StatusNoElapsed, 0, ""},
		{"empty", "", 0, wire.StatusNoElapsed, 0, ""},
		{"two", "elapsed_ns=1\nelapsed_ns=2\n", 0, wire.StatusBadOutput, 0, ""},
		{"not a number", "elapsed_ns=fast\n", 0, wire.StatusBadOutput, 0, ""},
		{"zero", "elapsed_ns=0\n", 0, wire.StatusBadOutput, 0, ""},
		{"negative", "elapsed_ns=-5\n", 0, wire.StatusBadOutput, 0, ""},
		{"two checks", "elapsed_ns=5\ncheck=a\ncheck=b\n", 0, wire.StatusBadOutput, 0, ""},
		{"over the cap", "elapsed_ns=5\n", 10, wire.StatusBadOutput, 0, ""},
		{"ns unit (hale's Duration)", "elapsed_ns=123ns\ncheck=x:1\n", 0, wire.StatusOK, 123, "x:1"},
		{"ns unit, trailing space", "elapsed_ns=9373585ns \n", 0, wire.StatusOK, 9373585, ""},
		{"milliseconds", "elapsed_ns=1.5ms\n", 0, wire.StatusBadOutput, 0, ""},
		{"whole milliseconds", "elapsed_ns=15ms\n", 0, wire.StatusBadOutput, 0, ""},
		{"seconds", "elapsed_ns=2s\n", 0, wire.StatusBadOutput, 0, ""},
		{"unit alone", "elapsed_ns=ns\n", 0, wire.StatusBadOutput, 0, ""},
		{"unit twice", "elapsed_ns=5nsns\n", 0, wire.StatusBadOutput, 0, ""},
		{"plus sign", "elapsed_ns=+5\n", 0, wire.StatusBadOutput, 0, ""},
		{"zero ns", "elapsed_ns=0ns\n", 0, wire.StatusBadOutput, 0, ""},
		{"check at the bound", "elapsed_ns=5\ncheck=" + strings.Repeat("a", maxCheck) + "\n", 0, wire.StatusOK, 5, strings.Repeat("a", maxCheck)},
		{"check over the bound", "elapsed_ns=5\ncheck=" + strings.Repeat("a", maxCheck+1) + "\n", 0, wire.StatusBadOutput, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := parseOutput([]byte(c.out), c.dropped)
			if p.status != c.status || p.elapsed != c.elapsed || p.check != c.check {
				t.Fatalf("got %+v, want %s %d %q", p, c.status, c.elapsed, c.check)
			}
		})
	}
}

func TestElapsedHeldToWall(t *testing.T) {
	ok := parsed{status: wire.StatusOK, elapsed: 1000}
	if got := heldToWall(ok, 1000); got.status != wire.StatusOK {
		t.Errorf("elapsed equal to the wall time: %+v", got)
	}
	if got := heldToWall(ok, 999); got.status != wire.StatusBadOutput || got.elapsed != 0 {
		t.Errorf("elapsed over the wall time: %+v", got)
	}
	bad := parsed{status: wire.StatusNoElapsed}
	if got := heldToWall(bad, 1); got != bad {
		t.Errorf("a failed parse changed: %+v", got)
	}
}

func TestCaptureKeepsOnlyTheCap(t *testing.T) {
	var c capture
	c.read(strings.NewReader(strings.Repeat("x", 100)+"\nelapsed_ns=1\n"), 50, false)
	if c.buf.Len() != 50 || c.dropped != 101-50+13 {
		t.Fatalf("kept %d, dropped %d", c.buf.Len(), c.dropped)
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
