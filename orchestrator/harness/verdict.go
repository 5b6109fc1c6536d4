package harness

import (
	"github.com/hale-lang/halebench/orchestrator/catalogue"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/status"
)

// newBench starts a bench's report entry: what the catalogue and the
// baseline say of it before anything runs.
func newBench(b *catalogue.Bench, p *Plan, seed int64) *report.Bench {
	rb := &report.Bench{
		Name: b.Name, Kind: b.Kind, Category: b.Category, CPUsNeeded: b.CPUs, Seed: seed,
		Comparatives:     map[string]*report.Lang{},
		ElapsedNsSamples: []int64{}, MaxRSSKBSamples: []int64{}, MemPeakKBSamples: []int64{},
	}
	if b.Note != "" {
		n := b.Note
		rb.Note = &n
	}
	if e := p.Base.Benches[b.Name]; e != nil {
		v, m, tol := e.ElapsedNs, e.MaxRSSKB, e.Tol()
		rb.BaselineElapsedNs, rb.BaselineMaxRSSKB, rb.Tolerance = &v, &m, &tol
		if rb.Note == nil && e.Note != "" {
			n := e.Note
			rb.Note = &n
		}
	}
	return rb
}

// cells is what the judge needs of each language's result on a bench.
func cells(rb *report.Bench, subject string) map[string]judge.Cell {
	out := map[string]judge.Cell{}
	for lang, res := range langMap(rb, subject) {
		out[lang] = judge.Cell{Status: res.Status, Check: res.Check, Median: res.ElapsedNsMedian}
	}
	return out
}

// applyVerdict writes the judge's verdict into the bench's report entry:
// parity, each language's status and ratio, and the subject's figures at
// the top (the seed's schema) when it has any.
func applyVerdict(rb *report.Bench, subject string, v judge.Verdict) {
	rb.Status, rb.Parity, rb.Check = v.Status, v.Parity, v.Check
	for lang, res := range langMap(rb, subject) {
		res.Status = v.Cells[lang]
		if d := v.Detail[lang]; d != "" {
			res.Detail = d
		}
		if r, ok := v.Ratios[lang]; ok {
			res.RatioVsSubject = &r
			if subject == "hale" {
				res.RatioVsHale = &r
			}
		}
	}
	subj := rb.SubjectResult
	if subj == nil || subj.ElapsedNsMedian <= 0 || !(subj.Status == status.OK || subj.Status == status.ParityMismatch || subj.Status == status.Regression) {
		return
	}
	m, rss := subj.ElapsedNsMedian, subj.MaxRSSKBMedian
	rb.ElapsedNsMedian, rb.ElapsedNsSamples = &m, subj.ElapsedNsSamples
	rb.MaxRSSKBMedian, rb.MaxRSSKBSamples = &rss, subj.MaxRSSKBSamples
	rb.MemPeakKBMedian, rb.MemPeakKBSamples = subj.MemPeakKBMedian, subj.MemPeakKBSamples
}

func langMap(rb *report.Bench, subject string) map[string]*report.Lang {
	m := map[string]*report.Lang{}
	for k, v := range rb.Comparatives {
		m[k] = v
	}
	if rb.SubjectResult != nil {
		m[subject] = rb.SubjectResult
	}
	return m
}
