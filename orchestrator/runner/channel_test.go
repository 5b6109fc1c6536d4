package runner

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// Only a result line carrying the job's nonce is believed; anything else on
// the channel is a protocol error.
func TestParseLineNeedsTheNonce(t *testing.T) {
	const nonce = "0123456789abcdef0123456789abcdef"
	cases := []struct {
		name, line string
		ok         bool
	}{
		{"the job's result", `halebench-result {"id":"1","nonce":"` + nonce + `","status":"ok","samples":[]}`, true},
		{"forged without a nonce", `halebench-result {"id":"1","status":"ok","samples":[{"status":"ok","elapsed_ns":42}]}`, false},
		{"forged with a guessed nonce", `halebench-result {"id":"1","nonce":"00000000000000000000000000000000","status":"ok","samples":[]}`, false},
		{"not a result", "elapsed_ns=42", false},
		{"broken json", "halebench-result {", false},
	}
	for _, c := range cases {
		_, err := parseLine(c.line, nonce)
		if (err == nil) != c.ok {
			t.Errorf("%s: err %v, want ok=%v", c.name, err, c.ok)
		}
	}
	out := "noise\n" + cases[1].line + "\n" + cases[0].line + "\n" + cases[2].line + "\n"
	res, err := ParseResult(out, nonce)
	if err != nil || res.Nonce != nonce {
		t.Fatalf("ParseResult picked %+v, %v", res, err)
	}
	if _, err := ParseResult(strings.Replace(out, nonce, "x", 1), nonce); err == nil {
		t.Fatal("ParseResult believed a line without the nonce")
	}
	a, _ := NewNonce()
	b, _ := NewNonce()
	if len(a) != 32 || a == b {
		t.Fatalf("nonces %q %q", a, b)
	}
}

// The runner's job line reads back, as the sampler reads it, to the job
// asked for: the program's argv in the image, the timeout in ns, the seed.
func TestEncodeJobReadsBack(t *testing.T) {
	c, _ := suite.ByName("python")
	line := EncodeJob("7", "n0nce", Job{Unit: "fn_call", Lang: c, Iters: 5, Warmup: 1, Timeout: 3 * time.Second,
		Seed: 42, MemLimit: 1 << 30, OutCap: 1 << 20, Env: []string{"A=1"}})
	var j wire.Job
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		t.Fatalf("%v\n%s", err, line)
	}
	want := wire.Job{ID: "7", Nonce: "n0nce", Iters: 5, Warmup: 1, TimeoutNs: int64(3 * time.Second), Seed: "42",
		MemLimit: 1 << 30, OutCap: 1 << 20, BuildFailed: "/bench/bin/fn_call.build_failed", Env: []string{"A=1"},
		Argv: c.Argv("/bench/bin/fn_call", "/bench/src/fn_call.py")}
	if !reflect.DeepEqual(j, want) {
		t.Fatalf("job %+v, want %+v", j, want)
	}
}
