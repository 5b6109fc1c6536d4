package harness

import (
	"fmt"
	"strings"
	"sync"

	"github.com/hale-lang/halebench/images/sampler/wire"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// progress says on the log how far sampling is: a line per finished
// (bench, language) and, on a terminal, a live line for the one sampling;
// the count lane's jobs, running in parallel, print through it too.
type progress struct {
	mu            sync.Mutex
	p             *Plan
	done, total   int
	counted, cnts int // the count lane's cells done, and to do
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
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.p.Live {
		fmt.Fprintf(pr.p.Log, "\r\033[K[%d/%d] %-28s %-6s sample %d of %d…", pr.done+1, pr.total, bench, lang, round, rounds)
	}
}

// countStart says how the count lane will count: how many cells, on
// which CPUs.
func (pr *progress) countStart(cells int, cpus []string) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	pr.cnts = cells
	if pr.p.Live {
		fmt.Fprint(pr.p.Log, "\r\033[K")
	}
	fmt.Fprintf(pr.p.Log, "counting: %d cells under Valgrind, %d at a time on CPUs %s\n", cells, len(cpus), strings.Join(cpus, ","))
}

// counting says, on a terminal, which cell was last started counting.
func (pr *progress) counting(bench, lang string) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.p.Live {
		fmt.Fprintf(pr.p.Log, "\r\033[K[count %d/%d] %-28s %-6s counting under Valgrind…", pr.counted+1, pr.cnts, bench, lang)
	}
}

// countDone prints a counted cell's line: under --count=only it is the
// cell's line, else the count lane's beside the timed one.
func (pr *progress) countDone(bench string, ln *lane, line string) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	pr.counted++
	if pr.p.Live {
		fmt.Fprint(pr.p.Log, "\r\033[K")
	}
	if pr.p.Count == CountOnly {
		pr.done++
		fmt.Fprintf(pr.p.Log, "[%d/%d] %-28s %-6s %s\n", pr.done, pr.total, bench, ln.lang.Name, line)
		return
	}
	fmt.Fprintf(pr.p.Log, "[count %d/%d] %-28s %-6s %s\n", pr.counted, pr.cnts, bench, ln.lang.Name, line)
}

// countSkipped prints, under --count=only, the line of a cell the count
// lane will not count (its timed line said why otherwise).
func (pr *progress) countSkipped(bench string, ln *lane) {
	if pr.p.Count != CountOnly {
		return
	}
	pr.mu.Lock()
	defer pr.mu.Unlock()
	pr.done++
	fmt.Fprintf(pr.p.Log, "[%d/%d] %-28s %-6s %s\n", pr.done, pr.total, bench, ln.lang.Name, countLine(ln, nil))
}

// finished prints a (bench, language)'s timed line; under --count=only a
// cell still to count prints its line once counted (countDone).
func (pr *progress) finished(bench, lang string, ln *lane) {
	countOnly := len(ln.out.Samples) == 0 && ln.out.Status == outcome.OK && ln.count.asked
	if countOnly && ln.count.job != nil {
		return
	}
	pr.mu.Lock()
	defer pr.mu.Unlock()
	pr.done++
	if pr.p.Live {
		fmt.Fprint(pr.p.Log, "\r\033[K")
	}
	line := progressLine(measured(ln.out), ln.out.Env.Affinity)
	if countOnly {
		line = countLine(ln, nil)
	}
	if ln.noToolchain {
		line = fmt.Sprintf("%s: %s", ln.out.Status, report.SaidAbove(lang))
	}
	fmt.Fprintf(pr.p.Log, "[%d/%d] %-28s %-6s %s\n", pr.done, pr.total, bench, lang, line)
}

func progressLine(m measurement, cpus string) string {
	if m.status != outcome.OK {
		d := m.detail
		if len(d) > 100 {
			d = d[:100] + "…"
		}
		return string(m.status) + ": " + d
	}
	peak := "n/a"
	if v, ok := m.figures[wire.MemPeakKB]; ok {
		peak = fmt.Sprintf("%d KiB", v.Median)
	}
	return fmt.Sprintf("median %s (cv %.1f%%), peak %s, cpus %s", report.FormatNs(m.elapsed.Median), m.elapsed.CV*100, peak, cpus)
}
