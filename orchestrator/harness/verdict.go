package harness

import (
	"github.com/hale-lang/halebench/orchestrator/judge"
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
	return judge.Gate{Entry: r.p.Base.Benches[bench], Alpha: r.p.Alpha, Incomparable: r.machine.Incomparable}
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
