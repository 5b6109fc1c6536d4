package harness

import (
	"context"
	"sort"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/catalogue"
	"github.com/hale-lang/halebench/orchestrator/imagebuild"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"github.com/hale-lang/halebench/orchestrator/stats"
	"github.com/hale-lang/halebench/orchestrator/status"
	"github.com/hale-lang/halebench/orchestrator/toolchain"
)

// placement is where a job ran: its image and cpuset, and whether that
// cpuset is shared with the orchestrator.
type placement struct {
	image, cpus string
	shared      bool
}

// sampleOne takes the samples of one (bench, language), or says why there
// are none (no toolchain, no image, not enough CPUs).
func sampleOne(ctx context.Context, env Env, p *Plan, b *catalogue.Bench, l toolchain.Language,
	tc imagebuild.Toolchain, bi imagebuild.BenchImage, seed int64) (runner.Outcome, placement) {
	if tc.Status != imagebuild.Available {
		return runner.Outcome{Status: status.Unavailable, Detail: tc.Reason}, placement{}
	}
	if bi.Ref == "" {
		return runner.Outcome{Status: status.Unavailable, Detail: "no bench image"}, placement{}
	}
	cpus, shared, err := runner.PlanCPUs(env.Host.LogicalCPUs, b.CPUs)
	if err != nil {
		return runner.Outcome{Status: status.Skipped, Detail: err.Error()}, placement{}
	}
	var vars []string
	for k, v := range b.Env {
		vars = append(vars, k+"="+v)
	}
	sort.Strings(vars)
	out := env.Engine.Sample(ctx, runner.Where{Lang: l.Name, Image: bi.Ref, CPUs: cpus}, runner.Job{
		Env: vars, Unit: b.Name, Lang: l, Iters: p.Iters, Warmup: p.Warmup, Timeout: p.Timeout, Seed: seed,
		MemLimit: p.MemLimit, OutCap: p.OutCap,
	})
	return out, placement{image: bi.Ref, cpus: cpus, shared: shared}
}

// langResult is what the report keeps of one language's outcome on a
// bench: its summary, every sample, and on failure the failing sample (the
// warm-up too) and the end of its stderr.
func langResult(out runner.Outcome, at placement, comparable bool) *report.Lang {
	res := &report.Lang{
		Status: out.Status, Detail: out.Detail, BuildError: out.BuildError, Comparable: comparable,
		ElapsedNsSamples: []int64{}, MaxRSSKBSamples: []int64{}, MemPeakKBSamples: []int64{},
		CPUs: at.cpus, CPUsShared: at.shared, Image: at.image, CPUsEffective: out.Env.Affinity, CgroupCpuset: out.Env.CgroupCpuset,
		ContainerID: out.ContainerID, JobNs: out.JobNs, Samples: out.Samples,
		MemPeakSource: out.Env.MemPeakSource, MemPeakError: out.Env.MemPeakError,
		CgroupVersion: out.Env.CgroupVersion, CPUModel: out.Env.CPUModel,
	}
	if res.Status == status.BuildFailed {
		res.Detail = "compile error: " + firstLines(out.BuildError, 3)
	}
	if res.Status != status.OK {
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
		res.Status, res.Detail = status.ParityMismatch, "check differs between samples of the same program"
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

func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, " | ")
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
