package wire

import (
	"strings"
	"testing"
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
		{"ok", "elapsed_ns=1234\ncheck=iters:5,acc:7\n", 0, StatusOK, 1234, "iters:5,acc:7"},
		{"ok without check", "noise\nelapsed_ns=9\n", 0, StatusOK, 9, ""},
		{"crlf", "elapsed_ns=10\r\ncheck=a:1\r\n", 0, StatusOK, 10, "a:1"},
		{"none", "hello\n", 0, StatusNoElapsed, 0, ""},
		{"empty", "", 0, StatusNoElapsed, 0, ""},
		{"two", "elapsed_ns=1\nelapsed_ns=2\n", 0, StatusBadOutput, 0, ""},
		{"not a number", "elapsed_ns=fast\n", 0, StatusBadOutput, 0, ""},
		{"zero", "elapsed_ns=0\n", 0, StatusBadOutput, 0, ""},
		{"negative", "elapsed_ns=-5\n", 0, StatusBadOutput, 0, ""},
		{"two checks", "elapsed_ns=5\ncheck=a\ncheck=b\n", 0, StatusBadOutput, 0, ""},
		{"over the cap", "elapsed_ns=5\n", 10, StatusBadOutput, 0, ""},
		{"ns unit (hale's Duration)", "elapsed_ns=123ns\ncheck=x:1\n", 0, StatusOK, 123, "x:1"},
		{"ns unit, trailing space", "elapsed_ns=9373585ns \n", 0, StatusOK, 9373585, ""},
		{"milliseconds", "elapsed_ns=1.5ms\n", 0, StatusBadOutput, 0, ""},
		{"whole milliseconds", "elapsed_ns=15ms\n", 0, StatusBadOutput, 0, ""},
		{"seconds", "elapsed_ns=2s\n", 0, StatusBadOutput, 0, ""},
		{"unit alone", "elapsed_ns=ns\n", 0, StatusBadOutput, 0, ""},
		{"unit twice", "elapsed_ns=5nsns\n", 0, StatusBadOutput, 0, ""},
		{"plus sign", "elapsed_ns=+5\n", 0, StatusBadOutput, 0, ""},
		{"zero ns", "elapsed_ns=0ns\n", 0, StatusBadOutput, 0, ""},
		{"check at the bound", "elapsed_ns=5\ncheck=" + strings.Repeat("a", MaxCheck) + "\n", 0, StatusOK, 5, strings.Repeat("a", MaxCheck)},
		{"check over the bound", "elapsed_ns=5\ncheck=" + strings.Repeat("a", MaxCheck+1) + "\n", 0, StatusBadOutput, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := ParseOutput([]byte(c.out), c.dropped)
			if p.Status != c.status || p.ElapsedNs != c.elapsed || p.Check != c.check {
				t.Fatalf("got %+v, want %s %d %q", p, c.status, c.elapsed, c.check)
			}
		})
	}
}
