package harness

import (
	"fmt"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/session"
)

// decideMachine has the judge compare the baseline's machine with this
// run's, once (before measuring, or, when the engine did not name the CPU,
// once the first sampler has), and says what differs in the warnings.
func (r *run) decideMachine() {
	g := judge.Machine(r.p.Base, r.p.Baselines, r.machineOf(), r.p.GateAnyMachine)
	r.machine = &g
	if g.Warning != "" {
		r.warn(g.Warning, g.Warning)
	}
}

// gateOf is how the subject of a bench is gated: its entry, the level, and
// whether the baseline's machine can gate it.
func (r *run) gateOf(bench string) judge.Gate {
	return judge.Gate{Entry: r.p.Base.Benches[bench], Alpha: r.p.Alpha, Incomparable: r.machine.Incomparable,
		Emulated: r.host.Emulated, NoBaseline: r.noBaseline}
}

// platform records the images' architecture and whether they run
// emulated, and keeps a baselines file of another architecture from
// gating (or being overwritten by) this run: a figure recorded on one
// architecture never gates another. An emulated run records no times.
func (r *run) platform(pl session.Platform) error {
	if pl.Arch == "" {
		pl = session.PlatformOf(r.env.Host, "")
	}
	r.host.ImageArch, r.host.Emulated = pl.Arch, pl.Emulated
	p := r.p
	// The languages as they build and count on this architecture (the
	// counted builds' CPU target the report and the baselines record).
	p.SubjectLang = p.SubjectLang.ForArch(pl.Arch)
	for i, l := range p.Languages {
		p.Languages[i] = l.ForArch(pl.Arch)
	}
	if pl.Emulated != "" {
		if p.UpdateBaselines && p.Count != CountOnly {
			return fmt.Errorf("--update-baselines: this run's %s images run emulated on this %s host, so its times and memory peaks are the emulator's, not measurements; record their counts alone with --count=only, or record times on a %s host", pl.Arch, r.env.Host.Arch, pl.Arch)
		}
		r.warn("emulated: "+pl.Emulated, "emulated: "+pl.Emulated)
	}
	a := p.Base.ArchOf()
	if a == "" || a == pl.Arch {
		return nil
	}
	if p.UpdateBaselines {
		return fmt.Errorf("--update-baselines: %s holds figures recorded on %s and this run's images are %s; give --baselines=PATH for a %s file (a missing file starts empty)", p.Baselines, a, pl.Arch, pl.Arch)
	}
	r.noBaseline = "recorded on " + a
	r.warn(fmt.Sprintf("baselines %s were recorded on %s, this run's images are %s: nothing gates this run (no_baseline)", p.Baselines, a, pl.Arch),
		fmt.Sprintf("baselines %s were recorded on %s, this run's images are %s: nothing gates this run (no_baseline); give --baselines=PATH for %s figures", p.Baselines, a, pl.Arch, pl.Arch))
	p.Base = &judge.File{Benches: map[string]*judge.Entry{}}
	return nil
}

// machineOf is this run's machine as a baselines file records it, with
// the subject's cpuset on each bench measured so far.
func (r *run) machineOf() judge.BaselineMachine {
	h, tc := r.host, r.subject
	m := judge.BaselineMachine{
		CPUModel: h.CPUModel, LogicalCPUs: h.LogicalCPUs, Kernel: h.Kernel,
		CgroupVersion: h.CgroupVersion, Privilege: h.Privilege.String(), EngineVersion: h.EngineVersion,
		SubjectToolchain: tc.Version, SubjectImageDigest: tc.Digest, Cpusets: map[string]string{},
	}
	if r.p.SubjectLang.SeedSubject {
		m.HaleVersion = tc.Version
	}
	for _, br := range r.benches {
		if ln := br.lanes[r.p.SubjectLang.Name]; ln != nil && ln.at.cpus != "" {
			m.Cpusets[br.b.Name] = ln.at.cpus
		}
	}
	return m
}
