package xproc

import (
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// The report's types live in orchestrator/report, which a verb that only reads or
// prints an xproc report imports without the engine.
type (
	Report = report.XprocReport
	Result = report.XprocResult
	Run    = report.Run
	Side   = report.XprocSide
)

// Variants are the variants and their records (report.Variants).
var Variants = report.Variants

// Ratios fills ratio_vs_hale and ratio_vs_subject of a variant's rows, as
// the judge computes them (judge.XprocRatios); a ratio the judge gives none
// of is left as it was.
func Ratios(results []*Result, subject string) {
	rows := make([]judge.XprocRow, len(results))
	for i, r := range results {
		rows[i] = judge.XprocRow{Row: r.Row, OK: r.Status == outcome.OK, Median: r.ElapsedNsMedian}
	}
	vsSeed, vsSubject := judge.XprocRatios(rows, subject)
	for i, r := range results {
		if vsSeed[i] != nil {
			r.RatioVsHale = vsSeed[i]
		}
		if vsSubject[i] != nil {
			r.RatioVsSubject = vsSubject[i]
		}
	}
}
