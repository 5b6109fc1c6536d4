package harness

import (
	"fmt"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/baseline"
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
		rb.BaselineElapsedNs, rb.BaselineMaxRSSKB, rb.Tolerance, rb.BandFrom = &v, &m, &tol, e.TolSource()
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
		mem, memSamples, _ := memoryOf(res)
		out[lang] = judge.Cell{Status: res.Status, Check: res.Check, Median: res.ElapsedNsMedian,
			Samples: res.ElapsedNsSamples, MemKB: mem, MemSamples: memSamples}
	}
	return out
}

// memoryOf is the memory a result is gated on: its cgroup peak, or maxrss
// where the host gave no peak, and which one it is.
func memoryOf(res *report.Lang) (median int64, samples []int64, source string) {
	if res.MemPeakKBMedian != nil && len(res.MemPeakKBSamples) > 0 {
		return *res.MemPeakKBMedian, res.MemPeakKBSamples, "mem_peak_kb"
	}
	return res.MaxRSSKBMedian, res.MaxRSSKBSamples, "maxrss_kb"
}

// gateOf is how the subject of a bench is gated: its entry, the level,
// and whether the baseline's machine is this one. What differs is said
// once, in the report's gate and warnings.
func gateOf(p *Plan, rep *report.Report, bench string) judge.Gate {
	g := judge.Gate{Entry: p.Base.Benches[bench], Alpha: p.Alpha}
	if rep.Gate.Machine == "" {
		rep.Gate.Machine = "same"
		switch {
		case p.Base.Machine == nil && len(p.Base.Benches) > 0:
			rep.Gate.Machine = "unknown"
			warn(p, rep, "baselines "+p.Baselines+" record no machine: they gate as the seed's did; re-record them here with --update-baselines")
		case p.Base.Machine != nil:
			if d := p.Base.Machine.Differences(machineOf(rep)); len(d) > 0 {
				rep.Gate.Machine = "differs: " + strings.Join(d, "; ")
				if p.GateAnyMachine {
					warn(p, rep, "baselines measured on another machine ("+strings.Join(d, "; ")+"); gating anyway (--gate-any-machine)")
				} else {
					warn(p, rep, "baselines measured on another machine ("+strings.Join(d, "; ")+"): nothing gates (incomparable_machine); re-record them here, or give --gate-any-machine")
				}
			}
		}
	}
	if strings.HasPrefix(rep.Gate.Machine, "differs") && !p.GateAnyMachine {
		g.Incomparable = rep.Gate.Machine
	}
	return g
}

func warn(p *Plan, rep *report.Report, msg string) {
	rep.Warnings = append(rep.Warnings, msg)
	fmt.Fprintf(p.Log, "warning: %s\n", msg)
}

// machineOf is this run's machine as a baselines file records it.
func machineOf(rep *report.Report) baseline.Machine {
	tc := rep.Images[rep.Subject]
	m := baseline.Machine{
		CPUModel: rep.Host.CPUModel, LogicalCPUs: rep.Host.LogicalCPUs, Kernel: rep.Host.Kernel,
		CgroupVersion: rep.Host.CgroupVersion, Privilege: rep.Host.Privilege.String(), EngineVersion: rep.Host.EngineVersion,
		SubjectToolchain: tc.Version, SubjectImageDigest: tc.Digest, Cpusets: map[string]string{},
	}
	if rep.Subject == "hale" {
		m.HaleVersion = tc.Version
	}
	for _, b := range rep.Benches {
		if b.SubjectResult != nil && b.SubjectResult.CPUs != "" {
			m.Cpusets[b.Name] = b.SubjectResult.CPUs
		}
	}
	return m
}

// applyVerdict writes the judge's verdict into the bench's report entry:
// parity, each language's status and ratio, and the subject's figures at
// the top (the seed's schema) when it has any.
func applyVerdict(rb *report.Bench, subject string, v judge.Verdict) {
	rb.Status, rb.Parity, rb.Check = v.Status, v.Parity, v.Check
	rb.TimeVerdict, rb.MemVerdict, rb.Verdict = v.Time, v.Memory, v.Detail[subject]
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
	if subj == nil || subj.ElapsedNsMedian <= 0 || !(subj.Status == status.OK || subj.Status == status.ParityMismatch ||
		subj.Status == status.Regression || subj.Status == status.MemRegression) {
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
