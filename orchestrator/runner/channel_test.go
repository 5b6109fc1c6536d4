package runner

import (
	"strings"
	"testing"
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
