package plan

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Spec is which part of how many a run is: K of N, K from 1.
type Spec struct {
	K, N int
	// From says where K/N came from: "--shard", or the CI variables read.
	From string
}

// MaxShards bounds N: more shards than that is a typo, not a cluster.
const MaxShards = 1000

// Parse reads "K/N" (1 ≤ K ≤ N).
func Parse(s string) (Spec, error) {
	k, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return Spec{}, fmt.Errorf("--shard=%s: want K/N, e.g. --shard=2/3 (the second of three shards), or --shard=auto", s)
	}
	ki, err1 := strconv.Atoi(k)
	ni, err2 := strconv.Atoi(n)
	if err1 != nil || err2 != nil {
		return Spec{}, fmt.Errorf("--shard=%s: K and N must be whole numbers, e.g. --shard=2/3", s)
	}
	sp := Spec{K: ki, N: ni, From: "--shard"}
	return sp, sp.check("--shard=" + s)
}

func (s Spec) check(what string) error {
	switch {
	case s.N < 1 || s.N > MaxShards:
		return fmt.Errorf("%s: N=%d shards; want 1 to %d", what, s.N, MaxShards)
	case s.K < 1 || s.K > s.N:
		return fmt.Errorf("%s: shard %d of %d does not exist; K counts from 1 to N", what, s.K, s.N)
	}
	return nil
}

// String is "K/N".
func (s Spec) String() string { return fmt.Sprintf("%d/%d", s.K, s.N) }

// FromCI reads K/N from the CI's own variables (getenv), for
// --shard=auto: GitLab's parallel jobs (CI_NODE_INDEX from 1,
// CI_NODE_TOTAL), else a Kubernetes Indexed Job's JOB_COMPLETION_INDEX
// (from 0), whose N the Job does not say: shards (--shards), else
// HALEBENCH_SHARDS.
func FromCI(getenv func(string) string, shards int) (Spec, error) {
	if idx, tot := getenv("CI_NODE_INDEX"), getenv("CI_NODE_TOTAL"); idx != "" || tot != "" {
		k, err1 := strconv.Atoi(idx)
		n, err2 := strconv.Atoi(tot)
		if err1 != nil || err2 != nil {
			return Spec{}, fmt.Errorf("--shard=auto: CI_NODE_INDEX=%q, CI_NODE_TOTAL=%q: want two whole numbers (GitLab sets them for a job with parallel: N)", idx, tot)
		}
		sp := Spec{K: k, N: n, From: "CI_NODE_INDEX/CI_NODE_TOTAL"}
		return sp, sp.check(fmt.Sprintf("--shard=auto: CI_NODE_INDEX=%d, CI_NODE_TOTAL=%d", k, n))
	}
	idx := getenv("JOB_COMPLETION_INDEX")
	if idx == "" {
		return Spec{}, errors.New("--shard=auto: no CI shard variables set (GitLab's CI_NODE_INDEX/CI_NODE_TOTAL, or Kubernetes' JOB_COMPLETION_INDEX); give --shard=K/N")
	}
	i, err := strconv.Atoi(idx)
	if err != nil {
		return Spec{}, fmt.Errorf("--shard=auto: JOB_COMPLETION_INDEX=%q: want a whole number", idx)
	}
	from := "JOB_COMPLETION_INDEX, --shards"
	if shards == 0 {
		env := getenv("HALEBENCH_SHARDS")
		if env == "" {
			return Spec{}, errors.New("--shard=auto: JOB_COMPLETION_INDEX is set but not how many shards there are; give --shards=N or HALEBENCH_SHARDS=N (the Job's completions)")
		}
		if shards, err = strconv.Atoi(env); err != nil {
			return Spec{}, fmt.Errorf("--shard=auto: HALEBENCH_SHARDS=%q: want a whole number", env)
		}
		from = "JOB_COMPLETION_INDEX, HALEBENCH_SHARDS"
	}
	sp := Spec{K: i + 1, N: shards, From: from}
	return sp, sp.check(fmt.Sprintf("--shard=auto: JOB_COMPLETION_INDEX=%d (from 0) of %d", i, shards))
}

// Resolve is what --shard and --shards ask for: nothing (ok false) when
// --shard is empty, K/N as given, or "auto" read by FromCI.
func Resolve(flag string, shards int, getenv func(string) string) (sp Spec, ok bool, err error) {
	switch {
	case flag == "":
		if shards != 0 {
			return Spec{}, false, errors.New("--shards=N goes with --shard=auto (K from JOB_COMPLETION_INDEX)")
		}
		return Spec{}, false, nil
	case flag == "auto":
		sp, err = FromCI(getenv, shards)
		return sp, err == nil, err
	case shards != 0:
		return Spec{}, false, fmt.Errorf("--shards=%d goes with --shard=auto; --shard=%s already says N", shards, flag)
	}
	sp, err = Parse(flag)
	return sp, err == nil, err
}

// Asked is the shard a verb's flags ask for: --shard (K/N, auto or none),
// --shards (N, where the CI says only K) and --shard-costs (an earlier
// report whose recorded times balance the shards).
type Asked struct {
	Spec   string
	Shards int
	Costs  string
}

// CostsNeedShard refuses costs (--shard-costs) given to an unsharded plan
// (sp.N 0): they balance shards, and alone would be silently unused.
func CostsNeedShard(sp Spec, costs string) error {
	if costs != "" && sp.N == 0 {
		return fmt.Errorf("--shard-costs=%s balances shards: give --shard=K/N too", costs)
	}
	return nil
}

// Resolve is the shard asked for (N 0: none), the same for every verb that
// shards: Costs without a shard is refused, and K/N read from the CI's
// variables (getenv) is said on log.
func (a Asked) Resolve(getenv func(string) string, log io.Writer) (Spec, error) {
	sp, ok, err := Resolve(a.Spec, a.Shards, getenv)
	if err != nil {
		return Spec{}, err
	}
	if err := CostsNeedShard(sp, a.Costs); err != nil {
		return Spec{}, err
	}
	if ok && sp.From != "--shard" {
		fmt.Fprintf(log, "shard %s from %s\n", sp, sp.From)
	}
	return sp, nil
}
