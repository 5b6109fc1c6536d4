package harness_test

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/stamp"
)

// --update-baselines over a stored file writes what halebench wrote before
// the metrics declared their baseline fields: the golden file, byte for
// byte but the time of writing and the record of the halebench that wrote
// it (this test binary's), which must be there.
func TestFakeUpdateBaselinesGolden(t *testing.T) {
	for _, c := range []struct{ stored, golden string }{
		{"../../baselines-c.json", "testdata/golden/update-baselines-c.json"},
		{"../../baselines.json", "testdata/golden/update-baselines.json"},
	} {
		data, err := os.ReadFile(c.stored)
		if err != nil {
			t.Fatal(err)
		}
		// The fake's subject is c: the hale file is read as c's.
		data = bytes.Replace(data, []byte(`"subject": "hale"`), []byte(`"subject": "c"`), 1)
		o := fakeOptions(t, "c", "c", "count")
		if err := os.WriteFile(o.Baselines, data, 0o644); err != nil {
			t.Fatal(err)
		}
		eng := &fakeEngine{elapsed: map[string]int64{"c": 1000}, check: map[string]string{"c": "n:1"}, timeOf: jittered(100_000)}
		rebaseline(t, o, eng)
		written := []byte(readFile(t, o.Baselines))
		var f struct{ Halebench *stamp.Tool }
		if err := json.Unmarshal(written, &f); err != nil || f.Halebench == nil || *f.Halebench != *stamp.This() {
			t.Errorf("%s updated names halebench %v (%v); want this one, %v", c.stored, f.Halebench, err, stamp.This())
		}
		got := regexp.MustCompile(`"updated_at": "[^"]*"`).ReplaceAll(written, []byte(`"updated_at": "T"`))
		got = regexp.MustCompile(`"halebench": \{[^}]*\}`).ReplaceAll(got, []byte(`"halebench": "this halebench"`))
		if os.Getenv("HALEBENCH_GOLDEN") == "write" {
			os.MkdirAll("testdata/golden", 0o755)
			os.WriteFile(c.golden, got, 0o644)
		}
		want, err := os.ReadFile(c.golden)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s updated differs from %s (%v):\n%s", c.stored, c.golden, err, got)
		}
	}
}
