package result

import (
	"fmt"
	"sort"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// Shard is one shard's report and the file it came from.
type Shard struct {
	File   string
	Report *report.Report
}

// Refusal is why merge will not join the reports: the file and the
// reason.
type Refusal struct {
	File string
	Why  string
}

func (e *Refusal) Error() string { return e.File + ": " + e.Why }

func refuse(file, format string, args ...any) error {
	return &Refusal{File: file, Why: fmt.Sprintf(format, args...)}
}

// MaxBenches bounds a shard's bench lists: no suite is that large.
const MaxBenches = 10000

// check refuses a report that is no complete shard of a run.
func (s Shard) check() error {
	r, sh := s.Report, s.Report.Shard
	if r.Schema != report.Schema {
		return refuse(s.File, "schema %q; want a run report (%s)", r.Schema, report.Schema)
	}
	if err := checkField(s.File, "report", "a run", sh, r.Status == outcome.Interrupted); err != nil {
		return err
	}
	if r.Rebaseline != nil {
		return refuse(s.File, "an --update-baselines run, not a measured shard")
	}
	return s.checkRows()
}

// checkRows refuses a shard whose bench rows are not its part: a bench
// outside it, one twice, one of its part missing. Shard 1 also holds the
// rows of benches the baselines name and the suite lost.
func (s Shard) checkRows() error {
	sh, seen := s.Report.Shard, map[string]bool{}
	for _, b := range s.Report.Benches {
		if b == nil {
			return refuse(s.File, "a bench entry is null")
		}
		switch {
		case seen[b.Name]:
			return refuse(s.File, "bench %s is in the report twice", b.Name)
		case !has(sh.Benches, b.Name) && !(gone(b) && sh.Index == 1):
			return refuse(s.File, "holds bench %s, which is not shard %d's part (%v)", b.Name, sh.Index, sh.Benches)
		}
		seen[b.Name] = true
	}
	for _, name := range sh.Benches {
		if !seen[name] {
			return refuse(s.File, "shard %d's part names %s, but the report has no row for it", sh.Index, name)
		}
	}
	return nil
}

// gone says whether a row is a bench the baselines name and the suite
// lost (no part of any shard).
func gone(b *report.Bench) bool { return b.Category == "missing" && b.Status == outcome.NoBench }

func sortedSet(names []string) error {
	if len(names) > MaxBenches {
		return fmt.Errorf("%d names; no suite has over %d benches", len(names), MaxBenches)
	}
	if !sort.StringsAreSorted(names) {
		return fmt.Errorf("not sorted")
	}
	for i := 1; i < len(names); i++ {
		if names[i] == names[i-1] {
			return fmt.Errorf("%s twice", names[i])
		}
	}
	return nil
}

func has(sorted []string, name string) bool {
	i := sort.SearchStrings(sorted, name)
	return i < len(sorted) && sorted[i] == name
}

// checkField refuses a shard field that is no one shard's of a partition,
// for run's reports and ab's results alike: none (a file of a verb run
// without --shard, said as without), a merge's, an index that cannot be, a
// partial one (interrupted), no digests, bench lists that are not sorted
// sets, or a part outside its suite.
func checkField(file, kind, without string, sh *report.Shard, interrupted bool) error {
	switch {
	case sh == nil:
		return refuse(file, "not a shard: it has no shard field (%s without --shard=K/N)", without)
	case sh.Index == 0 && len(sh.Parts) > 0:
		return refuse(file, "already a merge of %d shards; give the shards' own %ss", len(sh.Parts), kind)
	case sh.Total < 1 || sh.Total > report.MaxShards || sh.Index < 1 || sh.Index > sh.Total:
		return refuse(file, "shard field says shard %d of %d, which cannot be", sh.Index, sh.Total)
	case interrupted:
		return refuse(file, "shard %d/%d was interrupted: its %s is partial; rerun that shard", sh.Index, sh.Total, kind)
	case sh.Digest == "" || sh.SuiteSourcesDigest == "":
		return refuse(file, "shard field lacks its partition or sources digest")
	}
	if err := report.CheckDigest("shard field's partition_digest", sh.Digest); err != nil {
		return refuse(file, "%v", err)
	}
	if err := report.CheckDigest("shard field's suite_sources_digest", sh.SuiteSourcesDigest); err != nil {
		return refuse(file, "%v", err)
	}
	if err := sortedSet(sh.SuiteBenches); err != nil {
		return refuse(file, "shard field's suite_benches: %v", err)
	}
	if err := sortedSet(sh.Benches); err != nil {
		return refuse(file, "shard field's benches: %v", err)
	}
	for _, name := range sh.Benches {
		if !has(sh.SuiteBenches, name) {
			return refuse(file, "shard %d runs %s, which its suite_benches do not list", sh.Index, name)
		}
	}
	return nil
}
