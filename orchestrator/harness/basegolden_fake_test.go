package harness_test

import (
	"bytes"
	"os"
	"regexp"
	"testing"
)

// --update-baselines over a stored file writes what halebench wrote before
// the metrics declared their baseline fields: the golden file, byte for
// byte but the time of writing.
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
		got := regexp.MustCompile(`"updated_at": "[^"]*"`).ReplaceAll([]byte(readFile(t, o.Baselines)), []byte(`"updated_at": "T"`))
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
