package judge

import (
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/stamp"
)

// baselines.json names the halebench that last wrote it, as every document
// halebench writes does: Update (--update-baselines) and UpdateCounts both
// record it, over a file written before the record existed, which still
// reads (as nil).
func TestUpdatesRecordTheirHalebench(t *testing.T) {
	for _, c := range []struct {
		name   string
		update func(path string) error
	}{
		{"Update", func(path string) error {
			_, _, err := Update(path, recorded(map[string]figures{"fn_call": {ElapsedNs: 100}}), Provenance{Subject: "hale"}, time.Now())
			return err
		}},
		{"UpdateCounts", func(path string) error {
			_, err := UpdateCounts(path, "hale", "", map[string]Counted{"fn_call": {Instructions: 5, Scope: "region", Valgrind: "valgrind-3.19.0"}}, time.Now())
			return err
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path, before := copyFixture(t, "seed-baselines.json")
			if top, _ := rawOf(t, before); top["halebench"] != nil {
				t.Fatal("the fixture is to be a file written before the record: it holds one")
			}
			old, err := Load(path)
			if err != nil || old.Halebench != nil {
				t.Fatalf("a file without the record: %v, halebench %v", err, old.Halebench)
			}
			if err := c.update(path); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			top, _ := rawOf(t, data)
			var written stamp.Tool
			if err := json.Unmarshal(top["halebench"], &written); err != nil || written != *stamp.This() {
				t.Fatalf("the file names halebench %s (%v); want this one, %v", top["halebench"], err, stamp.This())
			}
			f, err := Load(path)
			if err != nil || f.Halebench == nil || *f.Halebench != *stamp.This() {
				t.Fatalf("read back: %v, halebench %v", err, f.Halebench)
			}
		})
	}
}
