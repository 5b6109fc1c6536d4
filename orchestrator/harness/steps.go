package harness

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/baseline"
	"github.com/hale-lang/halebench/orchestrator/catalogue"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/lifecycle"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/stats"
	"github.com/hale-lang/halebench/orchestrator/status"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
)

// buildImages makes (or finds) the sampler's toolchain, the base and, per
// language, its toolchain and bench image (lifecycle.BuildImages), and
// records each in the report. A language without a toolchain is recorded
// with the reason; that is not an error. It returns the bench images that
// exist.
func buildImages(ctx context.Context, b Images, p *Plan, rep *report.Report) (map[string]imagebuild.BenchImage, error) {
	built, err := lifecycle.BuildImages(ctx, b, lifecycle.Need{
		Langs: p.Langs,
		// Every bench of the language, even with --bench: one image serves
		// all runs of these sources, and --no-build finds it.
		Sources: func(l toolchain.Language) []imagebuild.Source {
			var srcs []imagebuild.Source
			for _, bench := range p.Suite.All {
				if path := bench.Sources[l.Name]; path != "" {
					srcs = append(srcs, imagebuild.Source{Unit: bench.Name, Path: path})
				}
			}
			return srcs
		},
		Toolchain: func(l toolchain.Language) bool { return l.Name == p.Subject.Name },
	}, p.Log)
	if err != nil {
		return nil, err
	}
	if built.Base != nil {
		rep.Base = *built.Base
	}
	for name, tc := range built.Toolchains {
		rep.Images[name] = tc
	}
	for name, bi := range built.Benches {
		rep.BenchImages[name] = bi
	}
	if _, ok := rep.Images["go"]; !ok {
		rep.Images["go"] = built.Sampler
	}
	return built.Benches, nil
}

// subjectResults is each bench's subject result in this pass (those with
// a number to record).
func subjectResults(rep *report.Report) map[string]*report.Lang {
	out := map[string]*report.Lang{}
	for _, rb := range rep.Benches {
		if s := rb.SubjectResult; s != nil && rb.ElapsedNsMedian != nil && s.Status != status.ParityMismatch && !s.Status.Failed() {
			out[rb.Name] = s
		}
	}
	return out
}

// updateBaselines records the subject's figures from the passes (each an
// independent run in fresh containers): the median of all samples, the
// within-run noise (median of the runs'), the between-run drift of the run
// medians, the band they give, the samples, and the same for memory.
func updateBaselines(p *Plan, rep *report.Report, passes []map[string]*report.Lang) error {
	kinds := map[string]string{}
	for _, rb := range rep.Benches {
		kinds[rb.Name] = rb.Kind
	}
	rep.Rebaseline = &report.Rebaseline{Runs: len(passes), Benches: map[string]report.RebaselineBench{}}
	if len(passes) == 1 {
		rep.Rebaseline.Note = "one run: no between-run drift was measured, so each band is a guess"
	}
	m := map[string]baseline.Measured{}
	for name := range passes[len(passes)-1] {
		var runs []*report.Lang
		for _, pass := range passes {
			if r := pass[name]; r != nil {
				runs = append(runs, r)
			}
		}
		if len(runs) < len(passes) {
			fmt.Fprintf(p.Log, "baselines: %s failed in some runs; not recorded\n", name)
			continue
		}
		v := measuredOf(kinds[name], runs)
		m[name] = v
		rep.Rebaseline.Benches[name] = report.RebaselineBench{RunMedians: v.RunMedians, Median: v.ElapsedNs, Noise: v.Noise,
			DriftSigma: v.DriftSigma, DriftRange: v.DriftRange, Band: stats.Band(v.Noise, v.DriftSigma, baseline.BandFloor, baseline.BandCeil),
			MemKB: v.MemKB, MemBand: math.Max(v.MemBand, baseline.MemBandFloor)}
	}
	if len(m) == 0 {
		fmt.Fprintf(p.Log, "baselines: no %s result to record; %s unchanged\n", rep.Subject, p.Baselines)
		return nil
	}
	host := fmt.Sprintf("%s, %d CPUs, kernel %s", rep.Host.CPUModel, rep.Host.LogicalCPUs, rep.Host.Kernel)
	mach := machineOf(rep)
	names, err := baseline.Update(p.Baselines, m, baseline.Provenance{Subject: rep.Subject, Toolchain: rep.Images[rep.Subject].Version, Host: host, Machine: &mach}, time.Now())
	if err != nil {
		return err
	}
	// The file floors each band by the host's drift over all its benches:
	// the report shows the bands as written.
	f, err := baseline.Load(p.Baselines)
	if err != nil {
		return err
	}
	rep.Rebaseline.HostDriftSigma = f.HostDriftSigma
	for name, rb := range rep.Rebaseline.Benches {
		if e := f.Benches[name]; e != nil {
			rb.Band = e.Tol()
			rep.Rebaseline.Benches[name] = rb
		}
	}
	fmt.Fprintf(p.Log, "baselines: %d benches of %s rewritten in %s from %d independent runs\n", len(names), rep.Subject, p.Baselines, len(passes))
	return nil
}

// measuredOf summarises one bench's subject results over independent runs.
func measuredOf(kind string, runs []*report.Lang) baseline.Measured {
	v := baseline.Measured{Kind: kind, Runs: len(runs)}
	var all, rss, mem, memMedians []int64
	var noises, memNoises []float64
	source := ""
	for _, r := range runs {
		v.RunMedians = append(v.RunMedians, r.ElapsedNsMedian)
		all = append(all, r.ElapsedNsSamples...)
		rss = append(rss, r.MaxRSSKBSamples...)
		noises = append(noises, stats.RelSEMedian(r.ElapsedNsSamples))
		med, samples, src := memoryOf(r)
		source = src
		mem, memMedians = append(mem, samples...), append(memMedians, med)
		memNoises = append(memNoises, stats.RelSEMedian(samples))
	}
	v.ElapsedNs, v.MaxRSSKB, v.Samples = stats.Median(all), stats.Median(rss), all
	v.Noise = stats.MedianFloat(noises)
	v.DriftSigma, v.DriftRange = stats.Drift(v.RunMedians)
	if source == "mem_peak_kb" {
		v.MemPeakKB = stats.Median(mem)
	}
	v.MemSource, v.MemKB, v.MemSamples = source, stats.Median(mem), mem
	memSigma, _ := stats.Drift(memMedians)
	v.MemBand = stats.Band(stats.MedianFloat(memNoises), memSigma, baseline.MemBandFloor, baseline.BandCeil)
	return v
}

// sourcesDigest names the bench sources a run measured.
func sourcesDigest(s *catalogue.Suite) (string, error) {
	h := sha256.New()
	var paths []string
	for _, b := range s.Benches {
		for _, p := range b.Sources {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	for _, p := range paths {
		data, err := catalogue.ReadSource(p)
		if err != nil {
			return "", err
		}
		sum := sha256.Sum256(data)
		fmt.Fprintf(h, "%s %x\n", p, sum)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

func short(id string) string {
	id = strings.TrimPrefix(id, "sha256:")
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
