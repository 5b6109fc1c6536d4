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

// lane is one language's samples of a bench as they accumulate.
type lane struct {
	lang  toolchain.Language
	at    placement
	where runner.Where
	out   runner.Outcome
	base  runner.Job
	done  bool // failed, unavailable or interrupted: no more samples
}

// job is the lane's job for n samples after w warm-ups.
func (l *lane) job(n, w int) runner.Job {
	j := l.base
	j.Iters, j.Warmup = n, w
	return j
}

// sampleBench takes the samples of every language of a bench interleaved:
// round after round, one sample of each language in turn (the first round
// after its warm-ups), so that a machine drifting during the bench moves
// every language alike and ratios stay honest. A language that fails stops
// there, keeping what it had.
func sampleBench(ctx context.Context, env Env, p *Plan, b *catalogue.Bench, rep *report.Report,
	images map[string]imagebuild.BenchImage, seed int64, prog *progress) map[string]*lane {
	var vars []string
	for k, v := range b.Env {
		vars = append(vars, k+"="+v)
	}
	sort.Strings(vars)
	lanes := map[string]*lane{}
	var order []*lane
	for _, l := range p.Langs {
		if b.Sources[l.Name] == "" {
			continue
		}
		ln := &lane{lang: l, out: runner.Outcome{Samples: []runner.Sample{}}}
		lanes[l.Name] = ln
		if l.Name == p.Subject.Name {
			order = append([]*lane{ln}, order...) // each round starts with the subject
		} else {
			order = append(order, ln)
		}
		tc, bi := rep.Images[l.Name], images[l.Name]
		cpus, shared, err := runner.PlanCPUs(env.Host.LogicalCPUs, b.CPUs)
		switch {
		case tc.Status != imagebuild.Available:
			ln.out.Status, ln.out.Detail, ln.done = status.Unavailable, tc.Reason, true
		case bi.Ref == "":
			ln.out.Status, ln.out.Detail, ln.done = status.Unavailable, "no bench image", true
		case err != nil:
			ln.out.Status, ln.out.Detail, ln.done = status.Skipped, err.Error(), true
		default:
			ln.at = placement{image: bi.Ref, cpus: cpus, shared: shared}
			ln.where = runner.Where{Lang: l.Name, Image: bi.Ref, CPUs: cpus}
			ln.base = runner.Job{Env: vars, Unit: b.Name, Lang: l, Timeout: p.Timeout, Seed: seed, MemLimit: p.MemLimit, OutCap: p.OutCap}
			ln.out.Status = status.OK
		}
	}
	for round := 0; round < p.Iters; round++ {
		for _, ln := range order {
			if ln.done {
				continue
			}
			if ctx.Err() != nil {
				ln.out.Status, ln.out.Detail, ln.done = status.Interrupted, "the run was interrupted", true
				continue
			}
			warm := 0
			if round == 0 {
				warm = p.Warmup
			}
			prog.sampling(b.Name, ln.lang.Name, round+1, p.Iters)
			merge(&ln.out, env.Engine.Sample(ctx, ln.where, ln.job(1, warm)))
			ln.done = ln.out.Status != status.OK
		}
	}
	return lanes
}

// merge adds one job's outcome to what a lane has: its samples, and its
// status where it failed.
func merge(acc *runner.Outcome, o runner.Outcome) {
	acc.Samples = append(acc.Samples, o.Samples...)
	acc.Warmups = append(acc.Warmups, o.Warmups...)
	if acc.Env.Affinity == "" && acc.Env.MemPeakSource == "" {
		acc.Env = o.Env
	}
	if o.ContainerID != "" {
		acc.ContainerID = o.ContainerID
	}
	acc.JobNs += o.JobNs
	if o.Status != status.OK {
		acc.Status, acc.Detail, acc.BuildError = o.Status, o.Detail, o.BuildError
	}
}

// langResult is what the report keeps of one language's outcome on a
// bench: its summary, every sample, and on failure the failing sample (the
// warm-up too) and the end of its stderr.
func langResult(out runner.Outcome, at placement, comparable bool) *report.Lang {
	if out.Samples == nil {
		out.Samples = []runner.Sample{}
	}
	res := &report.Lang{
		Status: out.Status, Detail: out.Detail, BuildError: out.BuildError, Comparable: comparable,
		ElapsedNsSamples: []int64{}, MaxRSSKBSamples: []int64{}, MemPeakKBSamples: []int64{},
		CPUs: at.cpus, CPUsShared: at.shared, Image: at.image, CPUsEffective: out.Env.Affinity, CgroupCpuset: out.Env.CgroupCpuset,
		ContainerID: out.ContainerID, JobNs: out.JobNs, Samples: out.Samples,
		MemPeakSource: out.Env.MemPeakSource, MemPeakError: out.Env.MemPeakError,
		CgroupVersion: out.Env.CgroupVersion, CPUModel: out.Env.CPUModel, Confinement: report.ConfinementOf(out.Env),
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
