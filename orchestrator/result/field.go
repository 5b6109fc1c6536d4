package result

import (
	"fmt"

	"github.com/hale-lang/halebench/orchestrator/report"
)

// Field is the report's shard field for part s.K of this partition: run,
// ab and xproc record a shard the same way. sourcesDigest is what the
// whole unsharded run's sources digest would be.
func (p Partition) Field(s Spec, sourcesDigest string) *report.Shard {
	return &report.Shard{
		Index: s.K, Total: s.N, From: s.From, SuiteBenches: p.Benches, Benches: p.Part(s.K),
		BalancedBy: p.BalancedBy, Loads: p.Loads, Digest: p.Digest, SuiteSourcesDigest: sourcesDigest,
	}
}

// FromReportFile is FromReport of the report stored at path
// (--shard-costs), read as show and compare read one.
func FromReportFile(path string, w Work) (Costs, error) {
	r, err := ReadRun(path, "--shard-costs")
	if err != nil {
		return Costs{}, fmt.Errorf("--shard-costs: %w", err)
	}
	return FromReport(path, r, w), nil
}
