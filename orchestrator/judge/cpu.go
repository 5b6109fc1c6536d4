package judge

import (
	"fmt"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/outcome"
)

// CPU is each sample's CPU time, user plus system (the sampler's rusage of
// the bench). It is reported, compared and charted, and gates only when
// asked: --update-baselines records no key of it, so it is held to a
// baseline only where an entry has a cpu_ns a person wrote in (a positive
// integer of ns), then by time's rule and band.
var CPU = &Metric{
	Name: "cpu", Unit: "ns",
	Of:        wire.CPUNs,
	Baseline:  cpuBase,
	Fields:    &Fields{Metric: "cpu", Keys: []string{wire.CPUNs}, Check: cpuCheck},
	Judge:     timeRule,
	Regressed: outcome.Regression,
	Format:    FormatNs,
}

func cpuBase(e *Entry) (Base, bool) {
	var ns int64
	if e == nil {
		return Base{}, false
	}
	if ok, err := e.Figure(wire.CPUNs, &ns); !ok || err != nil || ns <= 0 {
		return Base{}, false
	}
	return Base{Median: ns, Band: e.Tol(), BandFrom: "band (cpu_ns held to the time band)"}, true
}

func cpuCheck(where string, e *Entry) string {
	if _, ok := cpuBase(e); !ok && e.Has(wire.CPUNs) {
		return fmt.Sprintf("%sfield %s must be a positive integer (ns)", where, wire.CPUNs)
	}
	return ""
}
