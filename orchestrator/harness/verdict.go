package harness

import (
	"fmt"
	"sort"

	"github.com/hale-lang/halebench/orchestrator/baseline"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/stats"
)

// judgeBench sets parity, ratios and the subject's gate status.
func judgeBench(rb *report.Bench, subject string, e *baseline.Entry) {
	checks := map[string]string{}
	for name, res := range langMap(rb, subject) {
		if res.Status == runner.StatusOK {
			checks[name] = res.Check
		}
	}
	verdict, mismatched, agreed := judge.Parity(checks)
	rb.Parity, rb.Check = verdict, agreed
	for _, l := range mismatched {
		res := langMap(rb, subject)[l]
		res.Status = "parity_mismatch"
		res.Detail = fmt.Sprintf("check %q differs from the siblings' %q", res.Check, agreed)
	}
	subj := rb.SubjectResult
	measured := func(r *report.Lang) bool {
		return r != nil && (r.Status == runner.StatusOK || r.Status == "parity_mismatch") && r.ElapsedNsMedian > 0
	}
	for _, res := range rb.Comparatives {
		if measured(res) && measured(subj) {
			r := stats.Ratio(res.ElapsedNsMedian, subj.ElapsedNsMedian)
			res.RatioVsSubject = &r
			if subject == "hale" {
				res.RatioVsHale = &r
			}
		}
	}
	if subj == nil {
		rb.Status = "no_subject_source"
		return
	}
	if !measured(subj) {
		rb.Status = subj.Status
		if subj.Status == "unavailable" {
			rb.Status = "subject_unavailable"
		}
		return
	}
	m, rss := subj.ElapsedNsMedian, subj.MaxRSSKBMedian
	rb.ElapsedNsMedian, rb.ElapsedNsSamples = &m, subj.ElapsedNsSamples
	rb.MaxRSSKBMedian, rb.MaxRSSKBSamples = &rss, subj.MaxRSSKBSamples
	rb.MemPeakKBMedian, rb.MemPeakKBSamples = subj.MemPeakKBMedian, subj.MemPeakKBSamples
	if subj.Status == "parity_mismatch" {
		rb.Status = "parity_mismatch"
		return
	}
	rb.Status = judge.Gate(m, e)
	if rb.Status == judge.GateRegression {
		subj.Status = "regression"
		subj.Detail = fmt.Sprintf("median %d ns > baseline %d ns × (1 + %.2f)", m, e.ElapsedNs, e.Tol())
	}
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

func allLangs(rb *report.Bench) []*report.Lang {
	var out []*report.Lang
	if rb.SubjectResult != nil {
		out = append(out, rb.SubjectResult)
	}
	keys := make([]string, 0, len(rb.Comparatives))
	for k := range rb.Comparatives {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		out = append(out, rb.Comparatives[k])
	}
	return out
}
