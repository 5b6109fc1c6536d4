package result

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/report"
)

// An earlier report's recorded job and count times, every language's, by
// bench; a stored document of another kind is refused for --shard-costs.
func TestJobTimes(t *testing.T) {
	r := &report.Report{Schema: report.Schema, Subject: "c", Benches: []*report.Bench{
		{Name: "a", SubjectResult: &report.Lang{JobNs: 10, Count: &report.CountLane{WallNs: 100}},
			Comparatives: map[string]*report.Lang{"go": {JobNs: 5}}},
		{Name: "b", SubjectResult: &report.Lang{JobNs: 1}},
		{Name: "c", Comparatives: map[string]*report.Lang{"go": nil}},
	}}
	dir := t.TempDir()
	path := filepath.Join(dir, "old.json")
	data, _ := json.Marshal(r)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	took, err := JobTimes(path)
	if err != nil || took["a"] != 115 || took["b"] != 1 || took["c"] != 0 {
		t.Fatalf("JobTimes: %v, %v; want a 115, b 1, c 0", took, err)
	}
	ab := filepath.Join(dir, "ab.json")
	data, _ = json.Marshal(&report.Result{Schema: report.ABSchema, Subject: "c"})
	if err := os.WriteFile(ab, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := JobTimes(ab); err == nil || !strings.Contains(err.Error(), "--shard-costs") {
		t.Fatalf("an ab result as --shard-costs: %v; want refused naming --shard-costs", err)
	}
}
