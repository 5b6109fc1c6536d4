package harness

import (
	"sort"

	"github.com/hale-lang/halebench/orchestrator/collect"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/stamp"
	"github.com/hale-lang/halebench/orchestrator/stats"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// assemble is the report of the run's values, with status st: the one
// place a run's values take the report's shape.
func (r *run) assemble(st outcome.Status) *report.Report {
	p := r.p
	rep := &report.Report{
		Kind: report.Kind, Schema: report.Schema, Halebench: stamp.This(), GeneratedAt: r.at, RunID: r.env.RunID, Status: st,
		Iters: p.Iters, Warmup: p.Warmup, Subject: p.SubjectLang.Name,
		SubjectStatus: string(r.subject.Status), SubjectReason: r.subject.Reason,
		Host: r.host,
		Settings: report.Settings{
			TimeoutPerSample: p.Timeout.String(), MemLimitBytes: p.MemLimit, OutputCapBytes: p.OutCap,
			Languages: names(p.Languages),
		},
		Images: map[string]report.Toolchain{}, BenchImages: map[string]report.BenchImage{},
		SourcesDigest: r.digest, SuiteLayout: string(p.Catalogue.Layout), Baselines: p.Baselines,
		Gate:       report.Gate{Alpha: p.Alpha, Confirm: p.Confirm, Strict: p.Strict, AnyMachine: p.GateAnyMachine},
		Rebaseline: r.rebaseline, Shard: p.Partition, Benches: []*report.Bench{}, Warnings: r.warnings, Samplers: collect.Samplers(r.samplers),
	}
	if r.machine != nil {
		rep.Gate.Machine = r.machine.Machine
	}
	if r.built.base != nil {
		rep.Base = collect.Base(*r.built.base)
	}
	for lang, tc := range r.built.toolchains {
		rep.Images[lang] = collect.Toolchain(tc)
	}
	for lang, bi := range r.built.benches {
		rep.BenchImages[lang] = collect.BenchImage(bi)
	}
	for _, c := range p.Catalogue.Categories {
		rep.Categories = append(rep.Categories, report.Category{Name: c.Name, Title: c.Title, Benches: c.Benches})
	}
	valgrind, flagged := "", map[string]bool{}
	for _, br := range r.benches {
		rep.Benches = append(rep.Benches, benchRow(p, br))
		for _, m := range br.verdict.Flagged {
			flagged[m] = true
		}
		for _, ln := range br.lanes {
			if valgrind == "" {
				valgrind = ln.out.Env.Valgrind
			}
		}
	}
	rep.Count = r.count.report(valgrind)
	for _, m := range judge.Names() {
		if flagged[m] {
			rep.FlaggedBy = append(rep.FlaggedBy, m)
		}
	}
	for _, name := range r.gone {
		rep.Benches = append(rep.Benches, &report.Bench{Name: name, Kind: p.Base.Benches[name].Kind, Category: "missing",
			Status: outcome.NoBench, Verdict: "the baselines name this bench; the suite has no program for it any more",
			Comparatives: map[string]*report.Lang{}, ElapsedNsSamples: []int64{}, MaxRSSKBSamples: []int64{}, MemPeakKBSamples: []int64{}})
	}
	return rep
}

// benchRow is a bench's report entry: what the catalogue and the baseline
// say of it, each language's measurements, and the judge's verdict.
func benchRow(p *Plan, br *benchRun) *report.Bench {
	b := br.b
	rb := &report.Bench{
		Name: b.Name, Kind: b.Kind, Category: b.Category, CPUsNeeded: b.CPUs, Seed: br.seed,
		Comparatives:     map[string]*report.Lang{},
		ElapsedNsSamples: []int64{}, MaxRSSKBSamples: []int64{}, MemPeakKBSamples: []int64{},
		ConfirmSamples: br.confirm,
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
	for _, lang := range sortedLanes(br.lanes) {
		res := langResult(br.lanes[lang], b.Comparable(lang))
		if lang == p.SubjectLang.Name {
			rb.SubjectResult = res
		} else {
			rb.Comparatives[lang] = res
		}
	}
	applyVerdict(rb, p.SubjectLang.Name, br.verdict)
	rb.FlaggedBy = br.verdict.Flagged
	for lang, res := range rb.Langs(p.SubjectLang.Name) {
		res.Count = laneCount(br.lanes[lang], br.verdict.Counts[lang])
	}
	if c := br.verdict.Counts[p.SubjectLang.Name]; c != nil {
		rb.CountVerdict = c.Verdict
	}
	return rb
}

func sortedLanes(lanes map[string]*lane) []string {
	var out []string
	for l := range lanes {
		out = append(out, l)
	}
	sort.Strings(out)
	return out
}

// langResult is what the report keeps of one language's measurements on a
// bench: its summary, every sample, and on failure the failing sample (the
// warm-up too) and the end of its stderr.
func langResult(ln *lane, comparable bool) *report.Lang {
	out, at, m := ln.out, ln.at, measured(ln.out)
	res := &report.Lang{
		Status: m.status, Detail: m.detail, BuildError: out.BuildError, Comparable: comparable,
		ElapsedNsSamples: []int64{}, MaxRSSKBSamples: []int64{}, MemPeakKBSamples: []int64{},
		CPUs: at.cpus, CPUsShared: at.shared, Image: at.image, CPUsEffective: out.Env.Affinity, CgroupCpuset: out.Env.CgroupCpuset,
		ContainerID: out.ContainerID, JobNs: out.JobNs, Samples: collect.Samples(out.Samples),
		MemPeakSource: out.Env.MemPeakSource, MemPeakError: out.Env.MemPeakError,
		CgroupVersion: out.Env.CgroupVersion, CPUModel: out.Env.CPUModel, Confinement: collect.Confinement(out.Env),
	}
	if res.Samples == nil {
		res.Samples = []report.Sample{}
	}
	if out.Status != outcome.OK {
		res.Samples = collect.Samples(failingSamples(out))
		return res
	}
	res.Check = m.check
	res.SetFigures(m.figures)
	res.OverheadNs = stats.Median(m.over)
	return res
}

// applyVerdict writes the judge's verdict into the bench's report entry:
// parity, each language's status and ratio, and the subject's figures at
// the top (the seed's schema) when it has any.
func applyVerdict(rb *report.Bench, subject string, v judge.Verdict) {
	rb.Status, rb.Parity, rb.Check = v.Status, v.Parity, v.Check
	rb.Verdict = v.Detail[subject]
	for _, m := range judge.All() {
		rb.SetCheck(m, collect.Check(v.Checks[m.Name]))
	}
	for lang, res := range rb.Langs(subject) {
		res.Status = v.Cells[lang]
		if d := v.Detail[lang]; d != "" {
			res.Detail = d
		}
		if r, ok := v.Ratios[lang]; ok {
			res.RatioVsSubject = &r
			if suite.IsSeed(subject) {
				res.RatioVsHale = &r
			}
		}
	}
	subj := rb.SubjectResult
	if subj == nil || subj.ElapsedNsMedian <= 0 || !(subj.Status == outcome.OK || subj.Status == outcome.StatusParityMismatch ||
		subj.Status == outcome.Regression || subj.Status == outcome.MemRegression) {
		return
	}
	m, rss := subj.ElapsedNsMedian, subj.MaxRSSKBMedian
	rb.ElapsedNsMedian, rb.ElapsedNsSamples = &m, subj.ElapsedNsSamples
	rb.MaxRSSKBMedian, rb.MaxRSSKBSamples = &rss, subj.MaxRSSKBSamples
	rb.MemPeakKBMedian, rb.MemPeakKBSamples = subj.MemPeakKBMedian, subj.MemPeakKBSamples
}
