package engine

import (
	"os"
	"strconv"
	"testing"
)

func TestOrphaned(t *testing.T) {
	host, _ := os.Hostname()
	me := host + ":" + strconv.Itoa(os.Getpid())
	running := map[string]bool{"0123456789ab": true}
	cases := []struct {
		owner string
		want  bool
	}{
		{me, false},
		{host + ":999999999", true},
		{host + ":notapid", true},
		{"", true},
		{"other-host:1", false},
		{"0123456789ab:1", false}, // a containerised run that still runs
		{"ba9876543210:1", true},  // one whose container is gone
	}
	for _, c := range cases {
		if got := orphaned(c.owner, host, running); got != c.want {
			t.Errorf("orphaned(%q) = %v, want %v", c.owner, got, c.want)
		}
	}
}
