package result

import "fmt"

// JobTimes is what the run report stored at path (--shard-costs) recorded
// each bench took, in ns: every language's job round trips and counted
// runs. The report is read as show and compare read one; the shard plan
// (plan.FromReport) balances shards by these figures.
func JobTimes(path string) (map[string]int64, error) {
	r, err := ReadRun(path, "--shard-costs")
	if err != nil {
		return nil, fmt.Errorf("--shard-costs: %w", err)
	}
	took := map[string]int64{}
	for _, b := range r.Benches {
		for _, l := range b.Langs(r.Subject) {
			if l == nil {
				continue
			}
			took[b.Name] += max(l.JobNs, 0)
			if l.Count != nil {
				took[b.Name] += max(l.Count.WallNs, 0)
			}
		}
	}
	return took, nil
}
