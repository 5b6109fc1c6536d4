package xproc

import "github.com/hale-lang/halebench/orchestrator/xprocreport"

// The report's types live in xprocreport, which a verb that only reads or
// prints an xproc report imports without the engine.
type (
	Report = xprocreport.Report
	Result = xprocreport.Result
	Run    = xprocreport.Run
	Side   = xprocreport.Side
)

// Variants are the variants and their records (xprocreport.Variants).
var Variants = xprocreport.Variants

// Ratios fills ratio_vs_hale and ratio_vs_subject (xprocreport.Ratios).
func Ratios(results []*Result, subject string) { xprocreport.Ratios(results, subject) }
