package harness

import (
	"strings"

	"github.com/hale-lang/halebench/orchestrator/baseline"
	"github.com/hale-lang/halebench/orchestrator/judge"
)

// machineGate is whether the baseline's machine is this one, decided once
// per run: "same", "unknown" (a file that records none: it gates as the
// seed's did), or what differs (then nothing gates unless
// --gate-any-machine).
type machineGate struct {
	machine      string
	incomparable string // why the baseline cannot gate this run ("": it can)
}

// decideMachine compares the baseline's machine with this run's, once, and
// says what differs in the warnings.
func (r *run) decideMachine() {
	p := r.p
	r.machine = &machineGate{machine: "same"}
	switch {
	case p.Base.Machine == nil && len(p.Base.Benches) > 0:
		r.machine.machine = "unknown"
		msg := "baselines " + p.Baselines + " record no machine: they gate as the seed's did; re-record them here with --update-baselines"
		r.warn(msg, msg)
	case p.Base.Machine != nil:
		d := p.Base.Machine.Differences(r.machineOf())
		if len(d) == 0 {
			return
		}
		r.machine.machine = "differs: " + strings.Join(d, "; ")
		msg := "baselines measured on another machine (" + strings.Join(d, "; ") + "); gating anyway (--gate-any-machine)"
		if !p.GateAnyMachine {
			r.machine.incomparable = r.machine.machine
			msg = "baselines measured on another machine (" + strings.Join(d, "; ") + "): nothing gates (incomparable_machine); re-record them here, or give --gate-any-machine"
		}
		r.warn(msg, msg)
	}
}

// gate is how the subject of a bench is gated: its entry, the level, and
// whether the baseline's machine can gate it.
func (m *machineGate) gate(p *Plan, bench string) judge.Gate {
	return judge.Gate{Entry: p.Base.Benches[bench], Alpha: p.Alpha, Incomparable: m.incomparable}
}

// machineOf is this run's machine as a baselines file records it, with
// the subject's cpuset on each bench measured so far.
func (r *run) machineOf() baseline.Machine {
	h, tc := r.host, r.subject
	m := baseline.Machine{
		CPUModel: h.CPUModel, LogicalCPUs: h.LogicalCPUs, Kernel: h.Kernel,
		CgroupVersion: h.CgroupVersion, Privilege: h.Privilege.String(), EngineVersion: h.EngineVersion,
		SubjectToolchain: tc.Version, SubjectImageDigest: tc.Digest, Cpusets: map[string]string{},
	}
	if r.p.SubjectLang.Name == "hale" {
		m.HaleVersion = tc.Version
	}
	for _, br := range r.benches {
		if ln := br.lanes[r.p.SubjectLang.Name]; ln != nil && ln.at.cpus != "" {
			m.Cpusets[br.b.Name] = ln.at.cpus
		}
	}
	return m
}
