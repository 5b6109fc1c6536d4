package report

import (
	"fmt"
	"io"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Markdown writes the report's two tables as Markdown, for release notes:
// the same rows and figures as Tables. Every text that came from the
// report (titles, statuses, the host's words) goes through termtext.Cell.
func XprocMarkdown(w io.Writer, r *XprocReport) {
	fmt.Fprintf(w, "### Cross-process: %s, median of %d runs\n\n", termtext.Cell(r.GeneratedAt), r.Iters)
	fmt.Fprintf(w, "Host: %s, %d CPUs, kernel %s; privilege %s.", termtext.Cell(r.Host.CPUModel), r.Host.LogicalCPUs,
		termtext.Cell(r.Host.Kernel), termtext.Cell(r.Host.Privilege.String()))
	if r.Merged() {
		fmt.Fprintf(w, " Merged from %d shards; each row's ratios are against the references its own shard measured.", r.Shard.Total)
	}
	fmt.Fprintln(w)
	for _, v := range []string{"small", "large"} {
		rows := r.Variants[v]
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n#### %s — %s\n\n", v, Variants[v])
		fmt.Fprintln(w, "| language | median | ratio vs hale | reader peak | producer peak |")
		fmt.Fprintln(w, "|---|---:|---:|---:|---:|")
		for _, res := range rows {
			med, ratio := termtext.Cell(string(res.Status)), "—"
			if res.Status == outcome.OK {
				med = FormatNs(res.ElapsedNsMedian)
				if res.RatioVsHale != nil {
					ratio = FormatRatio(*res.RatioVsHale) + "×"
				}
			}
			title := termtext.Cell(res.Title)
			if res.Reference {
				title += " (reference)"
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", title, med, ratio, kb(res.ReaderMemPeakKB), kb(res.ProdMemPeakKB))
		}
	}
	fmt.Fprintln(w)
	for _, n := range r.Notes {
		fmt.Fprintln(w, "- "+termtext.Cell(n))
	}
}
