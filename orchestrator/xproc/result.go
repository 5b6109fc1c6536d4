package xproc

import "github.com/hale-lang/halebench/orchestrator/report"

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

// Ratios fills ratio_vs_hale and ratio_vs_subject (report.Ratios).
func Ratios(results []*Result, subject string) { report.Ratios(results, subject) }
