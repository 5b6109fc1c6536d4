package judge

import (
	"github.com/hale-lang/halebench/orchestrator/stats"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// XprocRow is what xproc's ratios read of one row of a variant: its name,
// whether it ran clean, and its median time.
type XprocRow struct {
	Row    string
	OK     bool
	Median int64
}

// XprocRatios are a variant's ratios, one pair per row in rows' order: each
// clean row's median over the seed subject's first row (Hale's per-record
// reader) and over the subject's row. A reference counts only when it ran
// clean with a median; a ratio with no reference, or of a row that did not
// run clean, is nil.
func XprocRatios(rows []XprocRow, subject string) (vsSeed, vsSubject []*float64) {
	by := map[string]XprocRow{}
	for _, r := range rows {
		by[r.Row] = r
	}
	ref := func(name string) (int64, bool) {
		r, ok := by[name]
		return r.Median, ok && r.OK && r.Median > 0
	}
	seed, haveSeed := ref(suite.Seed().Name)
	subj, haveSubj := ref(subject)
	vsSeed, vsSubject = make([]*float64, len(rows)), make([]*float64, len(rows))
	for i, r := range rows {
		if !r.OK {
			continue
		}
		if haveSeed {
			v := stats.Ratio(r.Median, seed)
			vsSeed[i] = &v
		}
		if haveSubj {
			v := stats.Ratio(r.Median, subj)
			vsSubject[i] = &v
		}
	}
	return vsSeed, vsSubject
}
