package harness

import (
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/session"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// built is what buildImages made: the base (nil when it could not be
// read), each language's toolchain (or why there is none) and its bench
// image.
type built struct {
	base       *image.Base
	toolchains map[string]image.Toolchain
	benches    map[string]image.BenchImage
	failed     map[string]string // why a language's bench image was not had (session.Images.BenchFailed)
}

// buildImages makes (or finds) the sampler's toolchain, the base and, per
// language, its toolchain and bench image (session.BuildImages), and
// returns them (what it had made, on an error). A language without a
// toolchain is returned with the reason; that is not an error.
func buildImages(ctx context.Context, b Images, p *Plan) (built, error) {
	imgs, err := session.BuildImages(ctx, b, session.Need{
		Langs: p.Languages,
		// Every bench of the language, even with --bench: one image serves
		// all runs of these sources, and --no-build finds it.
		Sources: func(l suite.Language) []image.Source {
			var srcs []image.Source
			for _, bench := range p.Catalogue.All {
				if path := bench.Sources[l.Name]; path != "" {
					srcs = append(srcs, image.Source{Unit: bench.Name, Path: path})
				}
			}
			return srcs
		},
		Toolchain: func(l suite.Language) bool { return l.Name == p.SubjectLang.Name },
	}, p.Log)
	out := built{base: imgs.Base, toolchains: imgs.Toolchains, benches: imgs.Benches, failed: imgs.BenchFailed}
	sampler := suite.SamplerLang().Name
	if _, ok := out.toolchains[sampler]; !ok && imgs.Sampler.Ref != "" {
		out.toolchains[sampler] = imgs.Sampler
	}
	return out, err
}

// subjectMeasurements is each bench's subject measurements in a pass:
// those with a number to record (not failed, and agreeing with the
// siblings).
func subjectMeasurements(subject string, pass []*benchRun) map[string]measurement {
	out := map[string]measurement{}
	for _, br := range pass {
		ln := br.lanes[subject]
		if ln == nil {
			continue
		}
		if m := measured(ln.out); m.status == outcome.OK && m.elapsed.Median > 0 && br.verdict.Cells[subject] != outcome.StatusParityMismatch {
			out[br.b.Name] = m
		}
	}
	return out
}

// updateBaselines records the subject's figures from the passes (each an
// independent run in fresh containers): the median of all samples, the
// within-run noise (median of the runs'), the between-run drift of the run
// medians, the band they give, the samples, and the same for memory. It
// returns what it recorded, with the bands as the file holds them.
func updateBaselines(r *run, passes [][]*benchRun) (*report.Rebaseline, error) {
	p := r.p
	rb := &report.Rebaseline{Runs: len(passes), Benches: map[string]report.RebaselineBench{}}
	if len(passes) == 1 {
		rb.Note = "one run: no between-run drift was measured, so each band is a guess"
	}
	var subj []map[string]measurement
	for _, pass := range passes {
		subj = append(subj, subjectMeasurements(p.SubjectLang.Name, pass))
	}
	m := map[string]judge.Measured{}
	for _, br := range passes[len(passes)-1] {
		name := br.b.Name
		if _, ok := subj[len(subj)-1][name]; !ok {
			continue
		}
		var runs []measurement
		for _, pass := range subj {
			if v, ok := pass[name]; ok {
				runs = append(runs, v)
			}
		}
		if len(runs) < len(passes) {
			fmt.Fprintf(p.Log, "baselines: %s failed in some runs; not recorded\n", name)
			continue
		}
		m[name] = measuredOf(br.b.Kind, runs)
	}
	if len(m) == 0 {
		fmt.Fprintf(p.Log, "baselines: no %s result to record; %s unchanged\n", p.SubjectLang.Name, p.Baselines)
		return rb, nil
	}
	host := fmt.Sprintf("%s, %d CPUs, kernel %s", r.host.CPUModel, r.host.LogicalCPUs, r.host.Kernel)
	mach := r.machineOf()
	f, names, err := judge.Update(p.Baselines, m, judge.Provenance{Subject: p.SubjectLang.Name, Toolchain: r.subject.Version, Host: host, Machine: &mach, Arch: r.host.ImageArch}, time.Now())
	if err != nil {
		return nil, err
	}
	// The file floors each band by the host's drift over all its benches:
	// the report shows the bands as written.
	rb.HostDriftSigma = f.HostDriftSigma
	for name := range m {
		rb.Benches[name] = rebaselined(f.Benches[name])
	}
	fmt.Fprintf(p.Log, "baselines: %d benches of %s rewritten in %s from %d independent runs\n", len(names), p.SubjectLang.Name, p.Baselines, len(passes))
	return rb, nil
}

// rebaselined is what an entry just written records, as the report says it.
func rebaselined(e *judge.Entry) report.RebaselineBench {
	deref := func(p *float64) float64 {
		if p == nil {
			return 0
		}
		return *p
	}
	memBand := judge.MemBandFloor
	if e.MemKB > 0 && e.MemTolerance != nil {
		memBand = *e.MemTolerance
	}
	return report.RebaselineBench{RunMedians: e.RunMedians, Median: e.ElapsedNs, Noise: deref(e.Noise),
		DriftSigma: deref(e.DriftSigma), DriftRange: deref(e.DriftRange), Band: e.Tol(), MemKB: e.MemKB, MemBand: memBand}
}

// measuredOf is one bench's subject measurements over independent runs
// as the baseline records them: each declared metric's Record over the
// runs' cells.
func measuredOf(kind string, runs []measurement) judge.Measured {
	cells := make([]judge.MetricCell, len(runs))
	for i, r := range runs {
		cells[i] = r.figures
	}
	return judge.Measured{Kind: kind, Record: func(e *judge.Entry) { judge.Record(e, cells) }}
}

// missingBenches are, on a whole-suite run, the benches the baseline names
// that the suite no longer has: a gate that silently lost a bench. Of a
// sharded run, shard 1 says them, so the merge has them once.
func missingBenches(p *Plan) []string {
	if p.Bench != "" || (p.Partition != nil && p.Partition.Index != 1) {
		return nil
	}
	have := map[string]bool{}
	for _, b := range p.Catalogue.All {
		have[b.Name] = true
	}
	var gone []string
	for name := range p.Base.Benches {
		if !have[name] {
			gone = append(gone, name)
		}
	}
	sort.Strings(gone)
	return gone
}

// benchSources are the bench sources a run measures, for the report's
// sources digest (plan.Digest): each named by its bench and language, as
// ab's and xproc's are, never by its path — two machines check a suite
// out in different places, and the shards of one run, or the two runs of
// an A/A, must record one digest.
func benchSources(s *suite.Suite) []plan.Source {
	var srcs []plan.Source
	for _, b := range s.Benches {
		for lang, path := range b.Sources {
			srcs = append(srcs, plan.Source{Name: b.Name + " " + lang, Path: path})
		}
	}
	sort.Slice(srcs, func(i, j int) bool { return srcs[i].Name < srcs[j].Name })
	return srcs
}
