package harness

import (
	"fmt"

	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/stats"
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
	for _, b := range p.Catalogue.Benches {
		for _, l := range p.Languages {
			if b.Sources[l.Name] != "" {
				pr.total++
			}
		}
	}
	return pr
}

// sampling says, on a terminal, which sample of which cell is being taken
// (the languages of a bench are sampled in turns).
func (pr *progress) sampling(bench, lang string, round, rounds int) {
	if pr.p.Live {
		fmt.Fprintf(pr.p.Log, "\r\033[K[%d/%d] %-28s %-6s sample %d of %d…", pr.done+1, pr.total, bench, lang, round, rounds)
	}
}

// counting says, on a terminal, which cell is being counted.
func (pr *progress) counting(bench, lang string) {
	if pr.p.Live {
		fmt.Fprintf(pr.p.Log, "\r\033[K[%d/%d] %-28s %-6s counting under Valgrind…", pr.done+1, pr.total, bench, lang)
	}
}

func (pr *progress) finished(bench, lang string, ln *lane) {
	pr.done++
	if pr.p.Live {
		fmt.Fprint(pr.p.Log, "\r\033[K")
	}
	line := progressLine(measured(ln.out), ln.out.Env.Affinity)
	if len(ln.out.Samples) == 0 && ln.out.Status == status.OK && ln.count.asked { // --count=only
		line = countLine(ln)
	}
	if ln.noToolchain {
		line = fmt.Sprintf("%s: %s", ln.out.Status, report.SaidAbove(lang))
	}
	fmt.Fprintf(pr.p.Log, "[%d/%d] %-28s %-6s %s\n", pr.done, pr.total, bench, lang, line)
}

func progressLine(m measurement, cpus string) string {
	if m.status != status.OK {
		d := m.detail
		if len(d) > 100 {
			d = d[:100] + "…"
		}
		return string(m.status) + ": " + d
	}
	peak := "n/a"
	if m.peak != nil {
		peak = fmt.Sprintf("%d KiB", stats.Median(m.peak))
	}
	return fmt.Sprintf("median %s (cv %.1f%%), peak %s, cpus %s", report.FormatNs(m.elapsed.Median), m.elapsed.CV*100, peak, cpus)
}
