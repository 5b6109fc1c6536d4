package harness

import (
	"fmt"

	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/status"
)

// progress says on the log how far sampling is: a line per finished
// (bench, language) and, on a terminal, a live line for the one sampling.
type progress struct {
	p           *Plan
	done, total int
}

func newProgress(p *Plan) *progress {
	pr := &progress{p: p}
	for _, b := range p.Suite.Benches {
		for _, l := range p.Langs {
			if b.Sources[l.Name] != "" {
				pr.total++
			}
		}
	}
	return pr
}

func (pr *progress) start(bench, lang string) {
	pr.done++
	if pr.p.Live {
		fmt.Fprintf(pr.p.Log, "\r\033[K[%d/%d] %-28s %-6s sampling: %d warm-up + %d samples…", pr.done, pr.total, bench, lang, pr.p.Warmup, pr.p.Iters)
	}
}

func (pr *progress) finished(bench, lang string, r *report.Lang) {
	if pr.p.Live {
		fmt.Fprint(pr.p.Log, "\r\033[K")
	}
	fmt.Fprintf(pr.p.Log, "[%d/%d] %-28s %-6s %s\n", pr.done, pr.total, bench, lang, progressLine(r))
}

func progressLine(r *report.Lang) string {
	if r.Status != status.OK {
		d := r.Detail
		if len(d) > 100 {
			d = d[:100] + "…"
		}
		return string(r.Status) + ": " + d
	}
	peak := "n/a"
	if r.MemPeakKBMedian != nil {
		peak = fmt.Sprintf("%d KiB", *r.MemPeakKBMedian)
	}
	return fmt.Sprintf("median %s (cv %.1f%%), peak %s, cpus %s", report.FormatNs(r.ElapsedNsMedian), r.ElapsedNs.CV*100, peak, r.CPUsEffective)
}
