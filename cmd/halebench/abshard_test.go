package main

import (
	"strings"
	"testing"
)

// ab and xproc refuse bad --shard input as run does (exit 2, saying why),
// before the engine is asked.
func TestABXprocShardBadInput(t *testing.T) {
	for _, verb := range [][]string{
		{"ab", "--suite=../..", "--subject=c", "--bench=fn_modular"},
		{"xproc", "--suite=../..", "--lang=c", "--results=" + t.TempDir()},
	} {
		for _, c := range []struct {
			args []string
			env  []string
			want string
		}{
			{[]string{"--shard=0/3"}, nil, "shard 0 of 3 does not exist"},
			{[]string{"--shard=4/3"}, nil, "shard 4 of 3 does not exist"},
			{[]string{"--shard=x"}, nil, "want K/N"},
			{[]string{"--shards=3"}, nil, "--shards=N goes with --shard=auto"},
			{[]string{"--shard=auto"}, []string{"CI_NODE_INDEX=", "CI_NODE_TOTAL=", "JOB_COMPLETION_INDEX="}, "no CI shard variables"},
			{[]string{"--shard=auto"}, []string{"JOB_COMPLETION_INDEX=1", "HALEBENCH_SHARDS="}, "--shards=N or HALEBENCH_SHARDS"},
		} {
			code, _, errOut := run(t, append([]string{"DOCKER_HOST=unix:///nonexistent.sock"}, c.env...), append(verb, c.args...)...)
			if code != 2 || !strings.Contains(errOut, c.want) {
				t.Errorf("%s %v: exit %d, stderr %q; want 2 and %q", verb[0], c.args, code, errOut, c.want)
			}
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"ab", "--suite=../..", "--subject=c", "--shard-costs=x.json"}, "give --shard=K/N too"},
		{[]string{"ab", "--suite=../..", "--subject=c", "--shard=1/2", "--shard-costs=/nonexistent.json"}, "--shard-costs"},
		{[]string{"xproc", "--suite=../..", "--lang=c", "--shard=1/2", "--shard-costs=x.json"}, "xproc balances its pairs by their rows"},
	} {
		code, _, errOut := run(t, []string{"DOCKER_HOST=unix:///nonexistent.sock"}, c.args...)
		if code != 2 || !strings.Contains(errOut, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", c.args, code, errOut, c.want)
		}
	}
}
