package judge

import (
	"os"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/outcome"
)

// FuzzParse: whatever a baselines file holds, its reader (Parse: one JSON
// object, every figure in range, every median agreeing with its samples)
// returns a value or an error, and never panics; what it accepts gates
// without panicking either.
func FuzzParse(f *testing.F) {
	for _, p := range []string{"testdata/seed-baselines.json", "testdata/counts-before.json", "../../baselines.json", "../../baselines-c.json"} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := Parse("baselines.json", data)
		if (b == nil) == (err == nil) {
			t.Fatalf("Parse: a value and an error, or neither: %v %v", b, err)
		}
		if b == nil {
			return
		}
		_ = b.SubjectOf()
		for _, e := range b.Benches {
			if e == nil {
				continue
			}
			subj := Cell{Status: outcome.OK, Median: 1100, Samples: []int64{1000, 1100, 1200}, Figures: MetricCell{"mem_peak_kb": {Median: 100, Samples: []int64{100, 100, 100}}}}
			_ = Bench("hale", map[string]Cell{"hale": subj}, Gate{Entry: e, Alpha: DefaultAlpha})
		}
	})
}
