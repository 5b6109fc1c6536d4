package judge

import (
	"fmt"
	"sort"

	"github.com/hale-lang/halebench/orchestrator/baseline"
	"github.com/hale-lang/halebench/orchestrator/stats"
	"github.com/hale-lang/halebench/orchestrator/status"
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

// Gate judges a subject median against its baseline entry (nil: none):
// status.OK, status.Regression or status.NoBaseline.
func Gate(median int64, e *baseline.Entry) status.Status {
	if e == nil {
		return status.NoBaseline
	}
	if e.Regressed(median) {
		return status.Regression
	}
	return status.OK
}

// Cell is one language's result on a bench, as the judge needs it.
type Cell struct {
	Status status.Status
	Check  string
	Median int64 // elapsed ns; 0 when nothing was measured
}

// measured says whether the cell has a number that can be compared.
func (c Cell) measured() bool {
	return (c.Status == status.OK || c.Status == status.ParityMismatch) && c.Median > 0
}

// Verdict is what the judge decided of one bench.
type Verdict struct {
	// Status is the bench's: the subject's gate outcome, or why it has none.
	Status status.Status
	Parity string
	Check  string // the workload's check, as most siblings printed it
	// Cells holds each language's status after judging (a parity mismatch
	// or a regression replaces ok) and why, where it changed.
	Cells  map[string]status.Status
	Detail map[string]string
	// Ratios holds each measured comparative's median over the subject's
	// (> 1: the subject is faster).
	Ratios map[string]float64
}

// Bench judges one bench from its cells (language -> result) and the
// subject's baseline entry (nil: none).
func Bench(subject string, cells map[string]Cell, e *baseline.Entry) Verdict {
	v := Verdict{Cells: map[string]status.Status{}, Detail: map[string]string{}, Ratios: map[string]float64{}}
	checks := map[string]string{}
	for lang, c := range cells {
		v.Cells[lang] = c.Status
		if c.Status == status.OK {
			checks[lang] = c.Check
		}
	}
	var mismatched []string
	v.Parity, mismatched, v.Check = Parity(checks)
	for _, lang := range mismatched {
		c := cells[lang]
		c.Status = status.ParityMismatch
		cells[lang] = c
		v.Cells[lang] = status.ParityMismatch
		v.Detail[lang] = fmt.Sprintf("check %q differs from the siblings' %q", c.Check, v.Check)
	}

	subj, ok := cells[subject]
	if ok && subj.measured() {
		for lang, c := range cells {
			if lang != subject && c.measured() {
				v.Ratios[lang] = stats.Ratio(c.Median, subj.Median)
			}
		}
	}
	switch {
	case !ok:
		v.Status = status.NoSubjectSource
	case subj.Status == status.Unavailable:
		v.Status = status.SubjectUnavailable
	case !subj.measured() || subj.Status == status.ParityMismatch:
		v.Status = subj.Status
	default:
		v.Status = Gate(subj.Median, e)
		if v.Status == status.Regression {
			v.Cells[subject] = status.Regression
			v.Detail[subject] = fmt.Sprintf("median %d ns > baseline %d ns × (1 + %.2f)", subj.Median, e.ElapsedNs, e.Tol())
		}
	}
	return v
}

// Run is the run's status from its benches' verdicts: status.Regression
// when the subject regressed on any bench, status.OK otherwise.
func Run(benches []status.Status) status.Status {
	for _, s := range benches {
		if s == status.Regression {
			return status.Regression
		}
	}
	return status.OK
}
