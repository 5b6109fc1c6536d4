package plan

import (
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Spec
		err  string
	}{
		{"2/3", Spec{2, 3, "--shard"}, ""},
		{"1/1", Spec{1, 1, "--shard"}, ""},
		{" 3/3 ", Spec{3, 3, "--shard"}, ""},
		{"0/3", Spec{}, "shard 0 of 3 does not exist"},
		{"4/3", Spec{}, "shard 4 of 3 does not exist"},
		{"-1/3", Spec{}, "does not exist"},
		{"1/0", Spec{}, "N=0 shards"},
		{"1/1001", Spec{}, "want 1 to 1000"},
		{"x", Spec{}, "want K/N"},
		{"1/x", Spec{}, "whole numbers"},
		{"/3", Spec{}, "whole numbers"},
		{"1/2/3", Spec{}, "whole numbers"},
	} {
		got, err := Parse(c.in)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) || !strings.Contains(err.Error(), "--shard="+c.in) {
				t.Errorf("Parse(%q) = %v, %v; want an error naming the flag and %q", c.in, got, err, c.err)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("Parse(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
}

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestResolve(t *testing.T) {
	for _, c := range []struct {
		name   string
		flag   string
		shards int
		env    func(string) string
		want   Spec
		ok     bool
		err    string
	}{
		{"no flag, CI variables ignored", "", 0, env("CI_NODE_INDEX", "2", "CI_NODE_TOTAL", "3"), Spec{}, false, ""},
		{"flag wins", "1/2", 0, env("CI_NODE_INDEX", "2", "CI_NODE_TOTAL", "3"), Spec{1, 2, "--shard"}, true, ""},
		{"gitlab", "auto", 0, env("CI_NODE_INDEX", "2", "CI_NODE_TOTAL", "3"), Spec{2, 3, "CI_NODE_INDEX/CI_NODE_TOTAL"}, true, ""},
		{"gitlab over k8s", "auto", 5, env("CI_NODE_INDEX", "1", "CI_NODE_TOTAL", "3", "JOB_COMPLETION_INDEX", "4"), Spec{1, 3, "CI_NODE_INDEX/CI_NODE_TOTAL"}, true, ""},
		{"gitlab index 0", "auto", 0, env("CI_NODE_INDEX", "0", "CI_NODE_TOTAL", "3"), Spec{}, false, "shard 0 of 3 does not exist"},
		{"gitlab half", "auto", 0, env("CI_NODE_INDEX", "2"), Spec{}, false, "CI_NODE_TOTAL=\"\""},
		{"k8s from 0, --shards", "auto", 3, env("JOB_COMPLETION_INDEX", "0"), Spec{1, 3, "JOB_COMPLETION_INDEX, --shards"}, true, ""},
		{"k8s, HALEBENCH_SHARDS", "auto", 0, env("JOB_COMPLETION_INDEX", "2", "HALEBENCH_SHARDS", "3"), Spec{3, 3, "JOB_COMPLETION_INDEX, HALEBENCH_SHARDS"}, true, ""},
		{"k8s past N", "auto", 3, env("JOB_COMPLETION_INDEX", "3"), Spec{}, false, "JOB_COMPLETION_INDEX=3 (from 0) of 3"},
		{"k8s without N", "auto", 0, env("JOB_COMPLETION_INDEX", "1"), Spec{}, false, "--shards=N or HALEBENCH_SHARDS"},
		{"k8s bad N", "auto", 0, env("JOB_COMPLETION_INDEX", "1", "HALEBENCH_SHARDS", "three"), Spec{}, false, "HALEBENCH_SHARDS=\"three\""},
		{"auto, nothing set", "auto", 0, env(), Spec{}, false, "no CI shard variables"},
		{"--shards alone", "", 3, env(), Spec{}, false, "goes with --shard=auto"},
		{"--shards with K/N", "1/3", 3, env(), Spec{}, false, "goes with --shard=auto"},
	} {
		got, ok, err := Resolve(c.flag, c.shards, c.env)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%s: got %v, %v; want an error with %q", c.name, got, err, c.err)
			}
			continue
		}
		if err != nil || ok != c.ok || got != c.want {
			t.Errorf("%s: got %v %v %v; want %v %v", c.name, got, ok, err, c.want, c.ok)
		}
	}
}

// The shard a verb's flags ask for: none, K/N as given (nothing said),
// K/N from the CI's variables (said on log), and --shard-costs without a
// shard refused.
func TestAskedResolve(t *testing.T) {
	env := map[string]string{"CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "3"}
	getenv := func(k string) string { return env[k] }
	for _, c := range []struct {
		a         Asked
		want, log string
		err       string
	}{
		{Asked{}, "0/0", "", ""},
		{Asked{Spec: "1/2", Costs: "r.json"}, "1/2", "", ""},
		{Asked{Spec: "auto"}, "2/3", "shard 2/3 from CI_NODE_INDEX/CI_NODE_TOTAL\n", ""},
		{Asked{Costs: "r.json"}, "", "", "--shard-costs=r.json balances shards: give --shard=K/N too"},
		{Asked{Spec: "3/2"}, "", "", "shard 3 of 2 does not exist"},
	} {
		var log strings.Builder
		sp, err := c.a.Resolve(getenv, &log)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%+v: %v, want %q", c.a, err, c.err)
			}
			continue
		}
		if err != nil || sp.String() != c.want || log.String() != c.log {
			t.Errorf("%+v: %s %v, said %q; want %s, said %q", c.a, sp, err, log.String(), c.want, c.log)
		}
	}
}
