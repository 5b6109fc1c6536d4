package judge

import (
	"sort"

	"github.com/hale-lang/halebench/orchestrator/baseline"
)

// Parity verdicts.
const (
	ParityOK       = "ok"
	ParityMismatch = "mismatch"
	ParitySingle   = "single" // one sibling had a check: nothing to compare
	ParityNone     = "none"   // no sibling had a check
)

// Parity compares the check lines of a bench's siblings (language -> check,
// only those that ran cleanly). The value most siblings printed is taken as
// the workload's; the languages that printed another are returned. With a
// tie at the top nobody can be trusted and every sibling is returned.
func Parity(checks map[string]string) (verdict string, mismatched []string, agreed string) {
	counts := map[string]int{}
	for _, c := range checks {
		if c != "" {
			counts[c]++
		}
	}
	switch len(counts) {
	case 0:
		return ParityNone, nil, ""
	case 1:
		for c := range counts {
			agreed = c
		}
		if len(checks) == 1 {
			return ParitySingle, nil, agreed
		}
		// A sibling with no check at all cannot be compared: flag it.
		for l, c := range checks {
			if c == "" {
				mismatched = append(mismatched, l)
			}
		}
		sort.Strings(mismatched)
		if len(mismatched) > 0 {
			return ParityMismatch, mismatched, agreed
		}
		return ParityOK, nil, agreed
	}
	best, tie := "", false
	for c, n := range counts {
		switch {
		case best == "" || n > counts[best]:
			best, tie = c, false
		case n == counts[best]:
			tie = true
		}
	}
	for l, c := range checks {
		if tie || c != best {
			mismatched = append(mismatched, l)
		}
	}
	sort.Strings(mismatched)
	if tie {
		best = ""
	}
	return ParityMismatch, mismatched, best
}

// Gate statuses of a bench.
const (
	GateOK         = "ok"
	GateRegression = "regression"
	GateNoBaseline = "no_baseline"
)

// Gate judges a subject median against its baseline entry (nil: none).
func Gate(median int64, e *baseline.Entry) string {
	if e == nil {
		return GateNoBaseline
	}
	if e.Regressed(median) {
		return GateRegression
	}
	return GateOK
}
