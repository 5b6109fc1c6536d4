package render

import (
	"io"
	"os"
	"testing"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/result"
)

// FuzzViews: whatever two stored documents hold, once the reader takes
// them (result.Decode), every view of them — compare's table (text and
// JSON, by time and by memory), report's HTML page (with the other as its
// history), the JUnit file, the step summary, the verdict line, ab's page —
// is written or refused, and never panics.
func FuzzViews(f *testing.F) {
	for _, p := range []string{"../report/testdata/run-c.json", "../report/testdata/before-h2/run-fake.json",
		"../report/testdata/before-h2/filled.json", "../result/testdata/today/ab-20261206T101112Z-abc123.json"} {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, data)
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		da, err := result.Decode("a.json", a)
		if err != nil {
			return
		}
		if da.AB != nil {
			_ = ABPage(io.Discard, da.AB)
			return
		}
		if da.Xproc != nil {
			_ = XprocPage(io.Discard, da.Xproc)
			return
		}
		if da.Run == nil {
			return
		}
		old := da.Run
		if db, err := result.Decode("b.json", b); err == nil && db.Run != nil {
			old = db.Run
		}
		for _, m := range []*judge.Metric{nil, judge.MetricMemory} {
			tab := Reports(old, da.Run, "", m, 0.05)
			tab.Text(io.Discard)
			_ = tab.JSON(io.Discard)
		}
		_ = Render(io.Discard, []*Run{RunOf("b.json", old), RunOf("a.json", da.Run)})
		_ = JUnit(io.Discard, da.Run)
		Summary(io.Discard, da.Run)
		_ = Of(da.Run).Line()
	})
}
