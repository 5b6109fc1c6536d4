package report

import (
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
)

// The gate line counts every status its benches ended with: a run whose
// subject was unavailable throughout says so, not "gate: ok — ;".
func TestGateLineCountsEveryStatus(t *testing.T) {
	cases := []struct {
		statuses []outcome.Status
		want     string
	}{
		{[]outcome.Status{outcome.SubjectUnavailable, outcome.SubjectUnavailable}, "gate: ok — 2 subject_unavailable;"},
		{[]outcome.Status{outcome.OK, outcome.Timeout, outcome.NoBaseline, outcome.OK, outcome.Improved},
			"gate: failed — 1 timeout, 1 no_baseline, 1 improved, 2 ok;"},
		{nil, "gate: ok — no bench;"},
	}
	for _, c := range cases {
		r := &Report{Subject: "hale", Status: outcome.OK, Settings: Settings{Languages: []string{"hale"}}}
		if strings.Contains(c.want, "failed") {
			r.Status = outcome.Failed
		}
		for i, s := range c.statuses {
			r.Benches = append(r.Benches, &Bench{Name: string(rune('a' + i)), Status: s, SubjectResult: &Lang{Status: outcome.Unavailable}})
		}
		var b strings.Builder
		Verdicts(&b, r)
		if !strings.Contains(b.String(), c.want) {
			t.Errorf("%v: verdicts\n%s\nwant a line with %q", c.statuses, b.String(), c.want)
		}
	}
}
