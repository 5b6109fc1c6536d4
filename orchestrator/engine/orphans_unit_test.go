package engine

import (
	"strconv"
	"testing"
)

func TestJudgeOwner(t *testing.T) {
	me := Identity{Boot: "b1", PIDNS: "pid:[1]", PID: 100, Start: "500"}
	alive := map[int]string{100: "500", 200: "700", 300: "999"}
	hidden := 400 // alive, but /proc/400/stat cannot be read (hidepid=2)
	start := func(pid int) (string, bool) {
		st, ok := alive[pid]
		return st, ok || pid == hidden
	}
	running := map[string]bool{"0123456789ab": true}
	id := func(i Identity) map[string]string {
		return map[string]string{LabelOwner: "host:" + strconv.Itoa(i.PID), LabelOwnerID: i.String()}
	}
	cases := []struct {
		name   string
		labels map[string]string
		gone   bool
		said   bool
	}{
		{"me", id(me), false, false},
		{"a live run", id(Identity{"b1", "pid:[1]", 200, "700"}), false, false},
		{"a dead run", id(Identity{"b1", "pid:[1]", 999999, "1"}), true, false},
		{"its pid now another process", id(Identity{"b1", "pid:[1]", 300, "1"}), true, false},
		{"alive, start unreadable", id(Identity{"b1", "pid:[1]", hidden, "1"}), false, true},
		{"another pid namespace", id(Identity{"b1", "pid:[2]", 999999, "1"}), false, true},
		{"another boot", id(Identity{"b0", "pid:[1]", 999999, "1"}), false, true},
		{"no identity", map[string]string{LabelOwner: "host:999999"}, false, true},
		{"no owner at all", map[string]string{}, false, true},
		{"a containerised run that still runs", map[string]string{LabelOwner: "0123456789ab:1", LabelOwnerID: Identity{"b1", "pid:[9]", 1, "5"}.String()}, false, false},
		{"one whose container is gone", map[string]string{LabelOwner: "ba9876543210:1", LabelOwnerID: Identity{"b1", "pid:[9]", 1, "5"}.String()}, true, false},
		{"an old containerised one whose container is gone", map[string]string{LabelOwner: "ba9876543210:1"}, true, false},
	}
	for _, c := range cases {
		gone, why := judgeOwner(c.labels, me, running, start)
		if gone != c.gone || (why != "") != c.said {
			t.Errorf("%s: gone %v why %q, want gone %v said %v", c.name, gone, why, c.gone, c.said)
		}
	}
}

func TestParseIdentity(t *testing.T) {
	i := Identity{Boot: "0b5e-1", PIDNS: "pid:[4026531836]", PID: 42, Start: "123"}
	if got, ok := ParseIdentity(i.String()); !ok || got != i {
		t.Fatalf("round trip %+v %v", got, ok)
	}
	for _, bad := range []string{"", "a/b/c", "a/b/x/d", "a/b/0/d", "/b/1/d"} {
		if _, ok := ParseIdentity(bad); ok {
			t.Errorf("ParseIdentity(%q) accepted", bad)
		}
	}
	if SelfIdentity().Start == "" || SelfIdentity().Boot == "" || SelfIdentity().PIDNS == "" {
		t.Fatalf("self identity incomplete: %+v", SelfIdentity())
	}
}
