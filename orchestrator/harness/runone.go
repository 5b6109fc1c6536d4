package harness

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/catalogue"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/stats"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
)

func runOne(ctx context.Context, servers *pool, o Options, rep *report.Report, b *catalogue.Bench, l toolchain.Language,
	images map[string]imagebuild.BenchImage, ncpu int, seed int64) *report.Lang {
	res := &report.Lang{Comparable: b.Comparable(l.Name), ElapsedNsSamples: []int64{}, MaxRSSKBSamples: []int64{}, MemPeakKBSamples: []int64{}}
	tc := rep.Images[l.Name]
	if tc.Status != imagebuild.Available {
		res.Status, res.Detail = "unavailable", tc.Reason
		return res
	}
	bi, ok := images[l.Name]
	if !ok {
		res.Status, res.Detail = "unavailable", "no bench image"
		return res
	}
	cpus, shared, err := runner.PlanCPUs(ncpu, b.CPUs)
	if err != nil {
		res.Status, res.Detail = "skipped", err.Error()
		return res
	}
	res.CPUs, res.CPUsShared, res.Image = cpus, shared, bi.Ref
	var env []string
	for k, v := range b.Env {
		env = append(env, k+"="+v)
	}
	sort.Strings(env)
	srv, err := servers.get(ctx, l.Name, bi.Ref, cpus)
	if err != nil {
		res.Status, res.Detail = runner.StatusRunFailed, err.Error()
		return res
	}
	out := srv.Run(ctx, runner.Job{Env: env, Unit: b.Name, Lang: l,
		Iters: o.Iters, Warmup: o.Warmup, Timeout: o.Timeout, Seed: seed,
		MemLimit: o.MemLimit, OutCap: o.OutCap,
	})
	res.Status, res.Detail, res.BuildError = out.Status, out.Detail, out.BuildError
	res.CPUsEffective, res.CgroupCpuset = out.Env.Affinity, out.Env.CgroupCpuset
	res.ContainerID, res.JobNs = out.ContainerID, out.JobNs
	res.Samples = out.Samples
	res.MemPeakSource, res.MemPeakError = out.Env.MemPeakSource, out.Env.MemPeakError
	res.CgroupVersion, res.CPUModel = out.Env.CgroupVersion, out.Env.CPUModel
	res.Confinement = report.ConfinementOf(out.Env)
	if res.Status == "build_failed" {
		res.Detail = "compile error: " + firstLines(out.BuildError, 3)
	}
	if res.Status != runner.StatusOK {
		// The failing run may be the warm-up: keep it, and its stderr, in the report.
		all := append(append([]runner.Sample{}, out.Warmups...), out.Samples...)
		res.Samples = all
		if n := len(all); n > 0 && all[n-1].StderrTail != "" {
			res.Detail += "; stderr: " + lastLines(all[n-1].StderrTail, 5)
		}
		return res
	}
	var el, rss, peak, over []int64
	checks := map[string]bool{}
	for _, s := range out.Samples {
		el = append(el, s.ElapsedNs)
		rss = append(rss, s.MaxRSSKB)
		if s.MemPeakKB != nil {
			peak = append(peak, *s.MemPeakKB)
		}
		if d := s.WallNs - s.ElapsedNs; d > 0 {
			over = append(over, d)
		}
		checks[s.Check] = true
		res.Check = s.Check
	}
	if len(checks) > 1 {
		// The same program printed different checks from sample to sample.
		res.Status, res.Detail = "parity_mismatch", "check differs between samples of the same program"
	}
	res.ElapsedNsSamples, res.MaxRSSKBSamples = el, rss
	if peak != nil {
		res.MemPeakKBSamples = peak
		m := stats.Median(peak)
		res.MemPeakKBMedian = &m
	}
	res.ElapsedNs = stats.Summarize(el)
	res.ElapsedNsMedian = res.ElapsedNs.Median
	res.MaxRSSKBMedian = stats.Median(rss)
	res.OverheadNs = stats.Median(over)
	return res
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}

func progressLine(r *report.Lang) string {
	if r.Status != runner.StatusOK {
		d := r.Detail
		if len(d) > 100 {
			d = d[:100] + "…"
		}
		return r.Status + ": " + d
	}
	peak := "n/a"
	if r.MemPeakKBMedian != nil {
		peak = fmt.Sprintf("%d KiB", *r.MemPeakKBMedian)
	}
	return fmt.Sprintf("median %s (cv %.1f%%), peak %s, cpus %s", report.FormatNs(r.ElapsedNsMedian), r.ElapsedNs.CV*100, peak, r.CPUsEffective)
}
