package harness_test

import (
	"context"
	"testing"
	"time"

	"github.com/hale-lang/halebench/orchestrator/enginetest"
	"github.com/hale-lang/halebench/orchestrator/subject"
)

// Every bench of the repository's catalogue, once, in every language this
// machine can build: each prints one elapsed_ns and a check, and the checks
// of a bench's siblings agree. Slow (minutes: every bench in five
// languages): `make test-slow` runs it; `make test` keeps the harness's
// engine tests on the suite's small test benches.
func TestSlowWholeCatalogueOnce(t *testing.T) {
	enginetest.Slow(t)
	eng := enginetest.Connect(t)
	o := options(t, "hale,go,node,python,c,rust", "hale", "")
	o.Suite = "../.."
	o.Iters, o.Warmup, o.Timeout = 1, 0, 3*time.Minute
	o.Images.Subject = subject.Build{Src: t.TempDir()} // no hale here: the others must still run
	res, err := runOn(t, context.Background(), eng, o)
	if err != nil {
		t.Fatal(err)
	}
	ran := 0
	for _, b := range res.Report.Benches {
		if len(b.Comparatives) == 0 {
			continue // a Hale-only bench
		}
		for lang, r := range b.Comparatives {
			ran++
			if r.Status != "ok" {
				t.Errorf("%s/%s: %s %s", b.Name, lang, r.Status, r.Detail)
				continue
			}
			if len(r.ElapsedNsSamples) != 1 || r.ElapsedNsSamples[0] <= 0 || r.Check == "" {
				t.Errorf("%s/%s: elapsed %v check %q", b.Name, lang, r.ElapsedNsSamples, r.Check)
			}
		}
		if len(b.Comparatives) > 1 && b.Parity != "ok" {
			t.Errorf("%s: parity %s", b.Name, b.Parity)
		}
	}
	if ran < 80 {
		t.Fatalf("only %d (bench, language) pairs ran", ran)
	}
	t.Logf("%d pairs ran; report %s", ran, res.ReportPath)
	enginetest.NoLeftovers(t, eng, res.Report.RunID)
}
