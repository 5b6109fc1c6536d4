package render

import (
	"fmt"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// countFigures names a count regression's figures for a failure message:
// the instructions (the count lane's metric, by its declared name) against the baseline's, the exact delta and the band.
func countFigures(b *report.Bench) []string {
	s := b.SubjectResult
	if s == nil || s.Count == nil || s.Count.Verdict != outcome.Regression || s.Count.Delta == nil || s.Count.Baseline == 0 {
		return nil
	}
	c := s.Count
	return []string{fmt.Sprintf("%s %d vs baseline %d (%+d, %+.2f%%), band ±%.1f%%",
		judge.Instructions.Name, c.Ir, c.Baseline, *c.Delta, 100*float64(*c.Delta)/float64(c.Baseline), 100*c.Band)}
}
