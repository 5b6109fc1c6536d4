package report

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Grid writes one line per bench: bench | A | B | ratio [low, high] |
// instructions | verdict, then the run's settings. Text a side, a bench or
// a build wrote (names, details, warnings) goes through termtext.
func ABGrid(w io.Writer, r *Result) {
	c, l := termtext.Clean, termtext.Line
	fmt.Fprintf(w, "A: %s\nB: %s\n", l(r.A), l(r.B))
	if r.SameSides {
		fmt.Fprintln(w, "A and B are given alike: an A/A (nothing should differ)")
	}
	if sh := r.Shard; sh != nil {
		fmt.Fprintf(w, "shard %d/%d: %d of the %d benches, balanced by %s\n", sh.Index, sh.Total, len(sh.Benches), len(sh.SuiteBenches), l(sh.BalancedBy))
	}
	for _, warn := range r.Warnings {
		fmt.Fprintln(w, "note:", c(warn))
	}
	if m := r.MetricOf(); m != judge.MetricTime {
		fmt.Fprintf(w, "metric: %s (%s)\n", m.Name, m.Unit)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "bench\tlang\tA\tB\tratio B/A [interval]\t±\trounds\tinstructions B/A\tverdict")
	for _, b := range r.Benches {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\n", l(b.Name), l(b.Lang), r.Figure(b.MedianA), r.Figure(b.MedianB),
			b.RatioText(), b.HalfText(), b.Rounds, b.InstrText(), l(string(b.Verdict)))
	}
	tw.Flush()
	for _, b := range r.Benches {
		if b.Detail != "" {
			fmt.Fprintf(w, "  %s (%s): %s\n", l(b.Name), l(b.Lang), c(b.Detail))
		}
	}
	fmt.Fprintf(w, "threshold ±%.1f %%; Hodges–Lehmann ratio, Wilcoxon signed-rank interval at %.2f %% per look (%.0f %% over %d looks); seed %d; stopped by %s after %d rounds in %.0fs\n",
		100*r.Threshold, 100*r.LookLevel, 100*r.Confidence, len(r.Looks), r.Seed, l(r.StoppedBy), r.Rounds, float64(r.ElapsedNs)/1e9)
}

// Markdown writes the comparison as a release-notes table. Every text in it
// goes through termtext.Cell: a side's name, a bench's or a build's words
// bring no image, link or HTML into the notes, and break no cell.
func ABMarkdown(w io.Writer, r *Result) {
	fmt.Fprintf(w, "### Performance: %s → %s\n\n", termtext.Cell(r.A), termtext.Cell(r.B))
	if m := r.MetricOf(); m != judge.MetricTime {
		fmt.Fprintf(w, "Metric: %s (%s).\n\n", m.Name, m.Unit)
	}
	fmt.Fprintln(w, "| bench | lang | A | B | B/A [interval] | instructions B/A | verdict |")
	fmt.Fprintln(w, "|---|---|---:|---:|---:|---:|---|")
	for _, b := range r.Benches {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n", termtext.Cell(b.Name), termtext.Cell(b.Lang), r.Figure(b.MedianA), r.Figure(b.MedianB), b.RatioText(), b.InstrText(), verdictMD(b))
	}
	fmt.Fprintf(w, "\nRatios are B/A from %d paired interleaved rounds at most (Hodges–Lehmann, Wilcoxon signed-rank interval at %.2f %%); `slower`/`faster` need the whole interval past 1 and the estimate past ±%.1f %%.", r.Rounds, 100*r.LookLevel, 100*r.Threshold)
	if h := r.HostLine(); h != "" {
		fmt.Fprintf(w, " Host: %s.", termtext.Cell(h))
	}
	fmt.Fprintln(w)
}

// JSON writes the result, indented.
func JSON(w io.Writer, r *Result) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

func verdictMD(b ABBench) string {
	if b.Detail != "" && b.Verdict == "missing" {
		return termtext.Cell(fmt.Sprintf("%s (%s)", b.Verdict, b.Detail))
	}
	return termtext.Cell(string(b.Verdict))
}

// RatioText is the ratio B/A with its interval: "1.100 [1.080, 1.120]".
func (b ABBench) RatioText() string {
	switch {
	case b.Ratio == 0:
		return "—"
	case b.RatioHigh == 0:
		return fmt.Sprintf("%.3f [—]", b.Ratio)
	}
	return fmt.Sprintf("%.3f [%.3f, %.3f]", b.Ratio, b.RatioLow, b.RatioHigh)
}

// HalfText is the resolution reached, half the interval: "2.0%".
func (b ABBench) HalfText() string {
	if b.HalfWidth == 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f%%", 100*b.HalfWidth)
}

// InstrText is the instructions' ratio B/A, "unstable" or "—".
func (b ABBench) InstrText() string {
	if b.CountStatus == outcome.CountUnstable {
		return "unstable"
	}
	if b.InstrRatio == 0 {
		return "—"
	}
	return fmt.Sprintf("%.4f", b.InstrRatio)
}

// Dur writes a duration in ns as ab's tables do: "1.10ms".
func Dur(ns float64) string {
	switch {
	case ns == 0:
		return "—"
	case ns >= 1e9:
		return fmt.Sprintf("%.2fs", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.2fms", ns/1e6)
	case ns >= 1e3:
		return fmt.Sprintf("%.1fµs", ns/1e3)
	}
	return fmt.Sprintf("%.0fns", ns)
}
