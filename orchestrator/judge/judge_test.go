package judge

import (
	"reflect"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/baseline"
)

func TestParity(t *testing.T) {
	cases := []struct {
		name     string
		in       map[string]string
		verdict  string
		mismatch []string
		agreed   string
	}{
		{"none", map[string]string{}, ParityNone, nil, ""},
		{"single", map[string]string{"c": "n:1"}, ParitySingle, nil, "n:1"},
		{"all agree", map[string]string{"c": "n:1", "go": "n:1", "py": "n:1"}, ParityOK, nil, "n:1"},
		{"one differs", map[string]string{"c": "n:1", "go": "n:2", "py": "n:1"}, ParityMismatch, []string{"go"}, "n:1"},
		{"tie", map[string]string{"c": "n:1", "go": "n:2"}, ParityMismatch, []string{"c", "go"}, ""},
		{"missing check", map[string]string{"c": "n:1", "go": ""}, ParityMismatch, []string{"go"}, "n:1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, m, a := Parity(c.in)
			if v != c.verdict || !reflect.DeepEqual(m, c.mismatch) || a != c.agreed {
				t.Fatalf("got %s %v %q, want %s %v %q", v, m, a, c.verdict, c.mismatch, c.agreed)
			}
		})
	}
}

func TestGate(t *testing.T) {
	tol := 0.1
	e := &baseline.Entry{ElapsedNs: 1000, Tolerance: &tol}
	if Gate(1100, e) != GateOK || Gate(1101, e) != GateRegression || Gate(5, nil) != GateNoBaseline {
		t.Fatal("gate")
	}
}
