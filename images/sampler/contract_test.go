//go:build linux

package main

// The sampler is built from this one file inside a toolchain image, so it
// imports nothing of the orchestrator and mirrors the runner's wire types
// by design. These tests hold the two sides to one contract.

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
)

// jsonKeys lists the JSON names of a struct type's fields.
func jsonKeys(t reflect.Type) []string {
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		keys = append(keys, name)
	}
	return keys
}

// allSet fails on any zero field of v (a field the wire did not carry).
func allSet(t *testing.T, what string, v reflect.Value) {
	t.Helper()
	for i := 0; i < v.NumField(); i++ {
		if v.Field(i).IsZero() {
			t.Errorf("%s.%s arrived empty: the two sides disagree on its name", what, v.Type().Field(i).Name)
		}
	}
}

func TestJobContract(t *testing.T) {
	c, _ := toolchain.ByName("c")
	line := runner.EncodeJob("7", "n0nce", runner.Job{Unit: "fn_call", Lang: c, Iters: 5, Warmup: 1, Timeout: 3 * time.Second,
		Seed: 42, MemLimit: 1 << 30, OutCap: 1 << 20, Env: []string{"A=1"}})
	if !bytes.HasSuffix(line, []byte("\n")) || bytes.Count(line, []byte("\n")) != 1 {
		t.Fatalf("a job is one line: %q", line)
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	var j job
	if err := dec.Decode(&j); err != nil {
		t.Fatalf("the sampler cannot read the runner's job: %v\n%s", err, line)
	}
	allSet(t, "job", reflect.ValueOf(j))
	if j.TimeoutNs != int64(3*time.Second) || j.Seed != "42" || j.ID != "7" || j.Iters != 5 {
		t.Fatalf("job %+v", j)
	}
}

func TestResultContract(t *testing.T) {
	peak := int64(2048)
	priv := &privileges{UID: "65534", GID: "65534", CapEff: "0", CapPrm: "0", CapBnd: "0", CapAmb: "0", NoNewPrivs: "1", Seccomp: "2",
		SpecStoreBypass: "s", PID1FDs: "denied", Filter: "f"}
	res := result{
		ID: "7", Nonce: "n0nce", Spent: true, Status: statusOK, Detail: "d", BuildError: "e",
		Env: environment{Affinity: "1", CgroupCpuset: "1", CgroupVersion: "v1", MemPeakSource: "s", MemPeakError: "x", Kernel: "k", CPUModel: "m",
			ContainerPrivileges: priv, BenchPrivileges: priv, ConfinementErrors: []string{"none"}},
		Samples: []sample{{Warmup: true, Status: statusOK, Detail: "d", ElapsedNs: 9, Check: "c", MaxRSSKB: 1, MemPeakKB: &peak,
			WallNs: 10, ExitCode: 1, Signal: "SIGSEGV", StderrTail: "t"}},
	}
	line, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if resultPrefix != runner.ResultPrefix {
		t.Fatalf("prefixes differ: sampler %q, runner %q", resultPrefix, runner.ResultPrefix)
	}
	got, err := runner.ParseResult("noise\n"+resultPrefix+string(line)+"\n", "n0nce")
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	var strict runner.SamplerResult
	if err := dec.Decode(&strict); err != nil {
		t.Fatalf("the runner does not know a field the sampler sends: %v", err)
	}
	allSet(t, "result", reflect.ValueOf(got))
	allSet(t, "env", reflect.ValueOf(got.Env))
	allSet(t, "sample", reflect.ValueOf(got.Samples[0]))
	allSet(t, "bench privileges", reflect.ValueOf(*got.Env.BenchPrivileges))
	// And the other way: every field the runner reads, the sampler writes.
	for _, pair := range []struct {
		what            string
		runner, sampler reflect.Type
	}{
		{"result", reflect.TypeOf(runner.SamplerResult{}), reflect.TypeOf(result{})},
		{"env", reflect.TypeOf(runner.Env{}), reflect.TypeOf(environment{})},
		{"sample", reflect.TypeOf(runner.Sample{}), reflect.TypeOf(sample{})},
		{"privileges", reflect.TypeOf(runner.Privileges{}), reflect.TypeOf(privileges{})},
	} {
		if r, s := jsonKeys(pair.runner), jsonKeys(pair.sampler); !reflect.DeepEqual(r, s) {
			t.Errorf("%s: runner reads %v, sampler writes %v", pair.what, r, s)
		}
	}
}
