package judge

import (
	"reflect"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/baseline"
	"github.com/hale-lang/halebench/orchestrator/status"
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
	if Gate(1100, e) != status.OK || Gate(1101, e) != status.Regression || Gate(5, nil) != status.NoBaseline {
		t.Fatal("gate")
	}
}

func ok(check string, median int64) Cell {
	return Cell{Status: status.OK, Check: check, Median: median}
}

// Every status a bench can take, from the cells the runner gives.
func TestBench(t *testing.T) {
	tol := 0.30
	base := &baseline.Entry{ElapsedNs: 1000, Tolerance: &tol}
	cases := []struct {
		name     string
		cells    map[string]Cell
		entry    *baseline.Entry
		status   status.Status
		subject  status.Status // the subject's cell after judging ("" : no cell)
		parity   string
		ratios   map[string]float64
		detailed []string // languages with a detail
	}{
		{"ok", map[string]Cell{"hale": ok("n:1", 1200), "c": ok("n:1", 600)}, base,
			status.OK, status.OK, ParityOK, map[string]float64{"c": 0.5}, nil},
		{"regression", map[string]Cell{"hale": ok("n:1", 1301), "c": ok("n:1", 1301)}, base,
			status.Regression, status.Regression, ParityOK, map[string]float64{"c": 1}, []string{"hale"}},
		{"faster is never a regression", map[string]Cell{"hale": ok("n:1", 10)}, base,
			status.OK, status.OK, ParitySingle, map[string]float64{}, nil},
		{"no baseline", map[string]Cell{"hale": ok("n:1", 10)}, nil,
			status.NoBaseline, status.OK, ParitySingle, map[string]float64{}, nil},
		{"subject's check differs", map[string]Cell{"hale": ok("n:2", 900), "c": ok("n:1", 900), "go": ok("n:1", 1800)}, base,
			status.ParityMismatch, status.ParityMismatch, ParityMismatch, map[string]float64{"c": 1, "go": 2}, []string{"hale"}},
		{"a comparative's check differs", map[string]Cell{"hale": ok("n:1", 900), "c": ok("n:1", 900), "go": ok("n:3", 1800)}, base,
			status.OK, status.OK, ParityMismatch, map[string]float64{"c": 1, "go": 2}, []string{"go"}},
		{"subject unavailable", map[string]Cell{"hale": {Status: status.Unavailable}, "c": ok("n:1", 9)}, base,
			status.SubjectUnavailable, status.Unavailable, ParitySingle, map[string]float64{}, nil},
		{"no subject source", map[string]Cell{"c": ok("n:1", 9), "go": ok("n:1", 9)}, base,
			status.NoSubjectSource, "", ParityOK, map[string]float64{}, nil},
		{"subject failed to build", map[string]Cell{"hale": {Status: status.BuildFailed}, "c": ok("n:1", 9)}, base,
			status.BuildFailed, status.BuildFailed, ParitySingle, map[string]float64{}, nil},
		{"subject timed out", map[string]Cell{"hale": {Status: status.Timeout}}, base,
			status.Timeout, status.Timeout, ParityNone, map[string]float64{}, nil},
		{"a comparative crashed", map[string]Cell{"hale": ok("n:1", 1000), "c": {Status: status.RunFailed}}, base,
			status.OK, status.OK, ParitySingle, map[string]float64{}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v := Bench("hale", c.cells, c.entry)
			if v.Status != c.status || v.Parity != c.parity {
				t.Fatalf("status %s parity %s, want %s %s", v.Status, v.Parity, c.status, c.parity)
			}
			if got := v.Cells["hale"]; got != c.subject {
				t.Fatalf("subject cell %q, want %q", got, c.subject)
			}
			if !reflect.DeepEqual(v.Ratios, c.ratios) {
				t.Fatalf("ratios %v, want %v", v.Ratios, c.ratios)
			}
			if len(v.Detail) != len(c.detailed) {
				t.Fatalf("details %v, want for %v", v.Detail, c.detailed)
			}
			for _, l := range c.detailed {
				if v.Detail[l] == "" {
					t.Fatalf("no detail for %s: %v", l, v.Detail)
				}
			}
		})
	}
}

func TestRun(t *testing.T) {
	if Run([]status.Status{status.OK, status.NoBaseline, status.SubjectUnavailable}) != status.OK {
		t.Fatal("no regression, yet not ok")
	}
	if Run([]status.Status{status.OK, status.Regression}) != status.Regression {
		t.Fatal("a regression, yet ok")
	}
}
