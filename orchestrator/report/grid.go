package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/suite"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Grid writes the seed README's grid: one table per category, a cell per
// language `<elapsed> (<ratio>×)` with the ratio against the subject, `—`
// where a sibling is missing, and a mark on flagged cells.
func Grid(w io.Writer, r *Report) { GridFor(w, r, GridOptions{}) }

// GridOptions are what Grid needs to know of its reader.
type GridOptions struct {
	// ReasonSaid: the reader has just seen, on the same terminal, why the
	// subject's toolchain is missing (the images step's line); the header
	// refers to it instead of repeating it.
	ReasonSaid bool
}

// GridFor is Grid for a reader o describes.
func GridFor(w io.Writer, r *Report, o GridOptions) {
	langs := gridLangs(r)
	gridHeader(w, r, o)
	marks := map[string]bool{}
	for _, t := range tables(r) {
		fmt.Fprintf(w, "\n%s\n\n", t.title)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		head := []string{"Bench"}
		for _, l := range langs {
			head = append(head, l.Title)
			for _, m := range r.Columns(l.Name) {
				head = append(head, l.Title+" "+m.Column)
			}
		}
		fmt.Fprintln(tw, strings.Join(head, "\t"))
		for _, b := range t.rows {
			cells := []string{clean(b.Name)}
			for _, l := range langs {
				cells = append(cells, cell(r, b, l.Name, marks))
				for _, m := range r.Columns(l.Name) {
					cells = append(cells, MetricCell(r, b, l.Name, m))
				}
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		tw.Flush()
	}
	if len(marks) > 0 {
		fmt.Fprintln(w)
	}
	for _, m := range []struct{ key, text string }{
		{"!", "! parity_mismatch: this sibling's check line differs from its peers' — it did other work; its number is shown but is not comparable"},
		{"*", "* not comparable by construction (see the bench's note in the report)"},
		{"~", "~ CPUs shared with the orchestrator (the host has no CPU to spare for it)"},
		{"±", "± noisy: the samples' coefficient of variation is over 10% — read it as a range (elapsed_ns min/max in the report)"},
		{"?", "? inconclusive: this run cannot tell whether the subject moved (see the list below)"},
		{"↓", "↓ improved: faster than the baseline past its band (informational)"},
	} {
		if marks[m.key] {
			fmt.Fprintln(w, m.text)
		}
	}
	Verdicts(w, r)
}

// gridHeader is the grid's first lines: the run, the subject, the host and
// how to read a cell.
func gridHeader(w io.Writer, r *Report, o GridOptions) {
	subjectTitle := subjectTitle(r)
	fmt.Fprintf(w, "halebench %s — subject %s (%s)", clean(r.GeneratedAt), subjectTitle, clean(r.SubjectStatus))
	switch {
	case r.SubjectReason != "" && o.ReasonSaid:
		fmt.Fprintf(w, "; %s", SaidAbove(clean(r.Subject)))
	case r.SubjectReason != "":
		fmt.Fprintf(w, ": %s", clean(r.SubjectReason))
	}
	h := r.Host
	fmt.Fprintf(w, "\nhost: %s, %d CPUs, kernel %s, cgroup %s, engine %s; %d samples per cell after %d warm-up; privilege %s; memory peak: %s\n",
		clean(orUnknown(h.CPUModel)), h.LogicalCPUs, clean(h.Kernel), clean(h.CgroupVersion), clean(h.EngineVersion),
		r.Iters, r.Warmup, clean(h.Privilege.String()), clean(memPeakSource(r)))
	if h.Emulated != "" {
		fmt.Fprintf(w, "emulated (%s images): %s\n", clean(h.ImageArch), clean(h.Emulated))
	}
	fmt.Fprintf(w, "cells: median elapsed (ratio = language / %s; > 1 means %s is faster)\n", subjectTitle, subjectTitle)
}

// memPeakSource says where memory peaks came from, or why there are none.
func memPeakSource(r *Report) string {
	switch {
	case r.Host.MemPeakSource != "":
		return r.Host.MemPeakSource
	case r.Iters == 0:
		return "not measured (no timed sample)"
	}
	return "unknown"
}

// Verdicts lists under the grid every subject bench that is not plainly
// ok — failures first, then regressions, inconclusive, improved and the
// rest — with why, and the gate's one-line summary.
func Verdicts(w io.Writer, r *Report) {
	order := []struct {
		label string
		match func(v outcome.Severity, s outcome.Status) bool
	}{
		{"FAILED", func(v outcome.Severity, _ outcome.Status) bool { return v == outcome.Fails }},
		{"REGRESSION", func(v outcome.Severity, _ outcome.Status) bool { return v == outcome.Regresses }},
		{"INCONCLUSIVE", func(_ outcome.Severity, s outcome.Status) bool { return s == outcome.Inconclusive }},
		{"IMPROVED", func(_ outcome.Severity, s outcome.Status) bool { return s == outcome.Improved }},
		{"NOT GATED", func(v outcome.Severity, _ outcome.Status) bool { return v == outcome.Unjudged }},
	}
	var tally judge.Tally
	for _, b := range r.Benches {
		tally.Add(b.Status, outcome.OfBench(b.Status, b.BaselineElapsedNs != nil))
	}
	var lines []string
	for _, o := range order {
		for _, b := range r.Benches {
			if !o.match(outcome.OfBench(b.Status, b.BaselineElapsedNs != nil), b.Status) {
				continue
			}
			why := b.Verdict
			if why == "" && b.SubjectResult != nil {
				why = b.SubjectResult.Detail
			}
			lines = append(lines, fmt.Sprintf("%-12s %s (%s): %s", o.label, clean(b.Name), clean(string(b.Status)), clean(termtext.Headline(why, 200))))
		}
	}
	if r.Status == "" {
		return
	}
	parts := []string{"no bench"}
	if c := tally.Counts(); len(c) > 0 {
		parts = parts[:0]
		for _, c := range c {
			parts = append(parts, fmt.Sprintf("%d %s", c.N, clean(string(c.Status))))
		}
	}
	flagged := ""
	if len(r.FlaggedBy) > 0 {
		flagged = " (flagged by " + strings.Join(r.FlaggedBy, ", ") + ")"
	}
	fmt.Fprintf(w, "\ngate: %s%s — %s; baselines' machine: %s\n", clean(string(r.Status)), flagged, strings.Join(parts, ", "), clean(orUnknown2(r.Gate.Machine)))
	for _, l := range lines {
		fmt.Fprintln(w, l)
	}
	countVerdicts(w, r)
}

func orUnknown2(s string) string {
	if s == "" {
		return "not compared"
	}
	return s
}

func gridLangs(r *Report) []suite.Language {
	var out []suite.Language
	for _, l := range suite.All {
		for _, s := range r.Settings.Languages {
			if s == l.Name {
				out = append(out, l)
			}
		}
	}
	// The subject's column comes first.
	for i, l := range out {
		if l.Name == r.Subject && i > 0 {
			out = append([]suite.Language{l}, append(out[:i:i], out[i+1:]...)...)
			break
		}
	}
	return out
}

func cell(r *Report, b *Bench, lang string, marks map[string]bool) string {
	var res *Lang
	if lang == r.Subject {
		res = b.SubjectResult
	} else {
		res = b.Comparatives[lang]
	}
	if res == nil {
		return "—"
	}
	if !res.Status.Measured() {
		return clean(string(res.Status))
	}
	if res.ElapsedNsMedian == 0 && res.Count != nil {
		return "not timed" // --count=only
	}
	s := FormatNs(res.ElapsedNsMedian)
	if lang != r.Subject && res.RatioVsSubject != nil {
		s += " (" + FormatRatio(*res.RatioVsSubject) + "×)"
	}
	if res.Status == outcome.Regression {
		s += " REGRESSION"
	}
	if res.Status == outcome.MemRegression {
		s += " MEM-REGRESSION"
	}
	if lang == r.Subject {
		switch b.Status {
		case outcome.Inconclusive:
			s += " ?"
			marks["?"] = true
		case outcome.Improved:
			s += " ↓"
			marks["↓"] = true
		}
	}
	if res.Status == outcome.StatusParityMismatch {
		s += " !"
		marks["!"] = true
	}
	if !res.Comparable {
		s += " *"
		marks["*"] = true
	}
	if res.CPUsShared {
		s += " ~"
		marks["~"] = true
	}
	if res.ElapsedNs.CV > NoisyCV {
		s += " ±"
		marks["±"] = true
	}
	return s
}

// NoisyCV is the coefficient of variation over which a cell is marked.
const NoisyCV = 0.10

// FormatNs writes a duration in its most readable unit with three
// significant figures: 1.59 ms, 19.7 ms, 196 µs, 3.67 s (the time
// metric's format).
func FormatNs(ns int64) string { return judge.FormatNs(ns) }

// FormatRatio writes a ratio with three significant figures (12.4, 0.403,
// 2303).
func FormatRatio(r float64) string { return judge.Sig3(r) }

func orUnknown(s string) string {
	if s == "" {
		return "unknown CPU"
	}
	return s
}

// SaidAbove refers to why lang's toolchain is missing, which the images
// step says once on the log ("images: <lang> unavailable: …"): what the
// reader sees after it refers to it instead of repeating it.
func SaidAbove(lang string) string {
	return `why: see "images: ` + lang + `" above`
}
