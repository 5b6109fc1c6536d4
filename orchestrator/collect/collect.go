package collect

import (
	"github.com/hale-lang/halebench/orchestrator/engine"
	"github.com/hale-lang/halebench/orchestrator/image"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/plan"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/runner"
	"maps"
)

// HostInfo is the engine's account of its host.
func HostInfo(h engine.HostInfo) report.HostInfo { return report.HostInfo(h) }

// Privilege is the privilege the sampler containers got.
func Privilege(p engine.Privilege) report.Privilege {
	return report.Privilege{Mode: p.Mode, CapDrop: p.CapDrop}
}

// Attempts are the privileges the engine refused on the way.
func Attempts(as []engine.Attempt) []report.Attempt {
	var out []report.Attempt
	for _, a := range as {
		out = append(out, report.Attempt{Privilege: Privilege(a.Privilege), Error: a.Error})
	}
	return out
}

// Samplers are the sampler containers a run started.
func Samplers(ss []runner.Started) []report.Sampler {
	out := []report.Sampler{}
	for _, s := range ss {
		out = append(out, report.Sampler(s))
	}
	return out
}

// Samples are a job's samples as the report keeps them.
func Samples(ss []runner.Sample) []report.Sample {
	if ss == nil {
		return nil
	}
	out := make([]report.Sample, 0, len(ss))
	for _, s := range ss {
		out = append(out, sample(s))
	}
	return out
}

// sample copies one wire sample field by field, its figures by name: the wire keeps its status
// as the sampler's string, the report as a status name.
func sample(s runner.Sample) report.Sample {
	return report.Sample{
		Warmup: s.Warmup, Status: outcome.Status(s.Status), Detail: s.Detail,
		Check: s.Check, Figures: maps.Clone(s.Figures),
		ExitCode: s.ExitCode, Signal: s.Signal, StderrTail: s.StderrTail,
	}
}

// Confinement is what a sampler said it and its benches were granted (nil
// when it did not say).
func Confinement(e runner.Env) *report.Confinement {
	if e.ContainerPrivileges == nil && e.BenchPrivileges == nil {
		return nil
	}
	return &report.Confinement{Container: privileges(e.ContainerPrivileges), Bench: privileges(e.BenchPrivileges), Errors: e.ConfinementErrors}
}

func privileges(p *runner.Privileges) *report.Privileges {
	if p == nil {
		return nil
	}
	v := report.Privileges(*p)
	return &v
}

// NoteSampler keeps in h the evidence of the first sampler that said what
// it saw of its container: what the container and the bench were granted,
// where memory peaks come from (or why there are none), its cgroup version
// and, if the engine did not say, the CPU model.
func NoteSampler(h *report.Host, env runner.Env) {
	if h.Confinement == nil {
		h.Confinement = Confinement(env)
	}
	if h.MemPeakSource != "" || env.MemPeakSource == "" {
		return
	}
	h.MemPeakSource, h.MemPeakError, h.ContainerCgroup = env.MemPeakSource, env.MemPeakError, env.CgroupVersion
	if h.CPUModel == "" {
		h.CPUModel = env.CPUModel
	}
}

// Base is the base image as the report records it.
func Base(b image.Base) report.Base {
	return report.Base{Ref: b.Ref, ID: b.ID, Origin: b.Origin, RootfsSHA256: b.RootfsSHA256, Inputs: inputs(b.Inputs), Provenance: provenance(b.Provenance)}
}

// Toolchain is a toolchain image (or why there is none) as the report
// records it.
func Toolchain(tc image.Toolchain) report.Toolchain {
	out := report.Toolchain{
		Status: tc.Status, Reason: tc.Reason, Ref: tc.Ref, ID: tc.ID, Digest: tc.Digest, Base: tc.Base,
		Version: tc.Version, BuildFlags: tc.BuildFlags, Executed: tc.Executed, Cached: tc.Cached,
		Inputs: inputs(tc.Inputs), Warnings: tc.Warnings, Provenance: provenance(tc.Provenance),
	}
	if tc.Hale != nil {
		h := report.HaleBuild(*tc.Hale)
		out.Hale = &h
	}
	return out
}

// BenchImage is a bench image as the report records it.
func BenchImage(bi image.BenchImage) report.BenchImage {
	return report.BenchImage{Ref: bi.Ref, ID: bi.ID, Digest: bi.Digest, Executed: bi.Executed, Cached: bi.Cached, Inputs: inputs(bi.Inputs),
		Trusted: bi.Trusted, Provenance: provenance(bi.Provenance)}
}

// provenance is where an image came from and what vouches for it (nil
// stays nil: an image from a report written before it was recorded).
func provenance(p *image.Provenance) *report.Provenance {
	if p == nil {
		return nil
	}
	v := report.Provenance(*p)
	return &v
}

func inputs(in *image.Inputs) *report.Inputs {
	if in == nil {
		return nil
	}
	v := report.Inputs(*in)
	return &v
}

// Check is a gate's check as the report records it (nil stays nil).
func Check(c *judge.Check) *report.Check {
	if c == nil {
		return nil
	}
	v := report.Check(*c)
	return &v
}

// Shard is the report's shard field of a share: run, ab and xproc record
// a shard the same way, with the whole plan's sources digest.
func Shard(s plan.Share) *report.Shard {
	p := s.Partition
	return &report.Shard{
		Index: s.Spec.K, Total: s.Spec.N, From: s.Spec.From, SuiteBenches: p.Benches, Benches: s.Units(),
		BalancedBy: p.BalancedBy, Loads: p.Loads, Digest: p.Digest, SuiteSourcesDigest: s.SourcesDigest,
	}
}
