package compare

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/stats"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Row is one bench in both reports.
type Row struct {
	Bench    string   `json:"bench"`
	Old      int64    `json:"old_median_ns,omitempty"`
	New      int64    `json:"new_median_ns,omitempty"`
	OldN     int      `json:"old_n"`
	NewN     int      `json:"new_n"`
	DeltaPct *float64 `json:"delta_pct,omitempty"`
	P        *float64 `json:"p,omitempty"`
	Verdict  string   `json:"verdict"` // slower, faster, ~ (no significant change), or why there is no comparison
	Counts   *Counts  `json:"counts,omitempty"`
}

// Table is the comparison of two reports.
type Table struct {
	Lang     string   `json:"lang"`
	Alpha    float64  `json:"alpha"`
	OldRun   string   `json:"old_run"`
	NewRun   string   `json:"new_run"`
	OldHost  string   `json:"old_host"`
	NewHost  string   `json:"new_host"`
	Warnings []string `json:"warnings,omitempty"`
	Rows     []Row    `json:"rows"`
}

// Reports compares lang's figures ("" : the new report's subject) in two
// reports at significance level alpha.
func Reports(old, cur *report.Report, lang string, alpha float64) Table {
	if lang == "" {
		lang = cur.Subject
	}
	t := Table{Lang: lang, Alpha: alpha, OldRun: old.GeneratedAt, NewRun: cur.GeneratedAt, OldHost: host(old), NewHost: host(cur)}
	if t.OldHost != t.NewHost {
		t.Warnings = append(t.Warnings, fmt.Sprintf("the reports come from different hosts (%s; %s): differences mix code and machine", t.OldHost, t.NewHost))
	}
	if old.SourcesDigest == cur.SourcesDigest && old.SourcesDigest != "" {
		t.Warnings = append(t.Warnings, "both reports measured the same bench sources (an A/A comparison)")
	}
	oldBy := map[string]*report.Bench{}
	for _, b := range old.Benches {
		oldBy[b.Name] = b
	}
	seen := map[string]bool{}
	for _, b := range cur.Benches {
		seen[b.Name] = true
		o, n := langOf(oldBy[b.Name], old.Subject, lang), langOf(b, cur.Subject, lang)
		r := row(b.Name, o, n, alpha)
		r.Counts = countsOf(o, n)
		t.Rows = append(t.Rows, r)
	}
	for _, b := range old.Benches {
		if !seen[b.Name] {
			t.Rows = append(t.Rows, Row{Bench: b.Name, Verdict: "only in the old report"})
		}
	}
	return t
}

func host(r *report.Report) string {
	cpu := r.Host.CPUModel
	if cpu == "" {
		cpu = "unknown CPU"
	}
	return fmt.Sprintf("%s, %d CPUs, kernel %s", cpu, r.Host.LogicalCPUs, r.Host.Kernel)
}

func langOf(b *report.Bench, subject, lang string) *report.Lang {
	if b == nil {
		return nil
	}
	if lang == subject {
		return b.SubjectResult
	}
	return b.Comparatives[lang]
}

func usable(l *report.Lang) bool {
	return l != nil && l.ElapsedNsMedian > 0 && len(l.ElapsedNsSamples) > 0
}

func row(name string, o, n *report.Lang, alpha float64) Row {
	r := Row{Bench: name}
	switch {
	case o == nil:
		r.Verdict = "only in the new report"
		return r
	case n == nil:
		r.Verdict = "only in the old report"
		return r
	case !usable(o) || !usable(n):
		r.Verdict = fmt.Sprintf("no figures (old %s, new %s)", o.Status, n.Status)
		return r
	}
	r.Old, r.New, r.OldN, r.NewN = o.ElapsedNsMedian, n.ElapsedNsMedian, len(o.ElapsedNsSamples), len(n.ElapsedNsSamples)
	d := (float64(r.New)/float64(r.Old) - 1) * 100
	p := math.Min(1, 2*math.Min(stats.MannWhitneyGreater(n.ElapsedNsSamples, o.ElapsedNsSamples), stats.MannWhitneyGreater(o.ElapsedNsSamples, n.ElapsedNsSamples)))
	r.DeltaPct, r.P = &d, &p
	switch {
	case p >= alpha:
		r.Verdict = "~"
	case d > 0:
		r.Verdict = "slower"
	default:
		r.Verdict = "faster"
	}
	return r
}

// Text writes the table as benchstat does: a change only where it is
// significant, "~" where it is not.
func (t Table) Text(w io.Writer) {
	// Everything but the figures comes from the two report files: cleaned.
	c := termtext.Clean
	fmt.Fprintf(w, "%s: old %s on %s\n%s  new %s on %s\n", c(t.Lang), c(t.OldRun), c(t.OldHost), strings.Repeat(" ", len(t.Lang)), c(t.NewRun), c(t.NewHost))
	for _, m := range t.Warnings {
		fmt.Fprintln(w, "warning:", c(m))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "bench\told\tnew\tdelta\tp\tn\tverdict")
	for _, r := range t.Rows {
		if r.DeltaPct == nil {
			fmt.Fprintf(tw, "%s\t—\t—\t—\t—\t—\t%s\n", c(r.Bench), c(r.Verdict))
			continue
		}
		delta := "~"
		if r.Verdict != "~" {
			delta = fmt.Sprintf("%+.1f%%", *r.DeltaPct)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\tp=%.3f\t%d+%d\t%s\n", c(r.Bench), report.FormatNs(r.Old), report.FormatNs(r.New), delta, *r.P, r.OldN, r.NewN, r.Verdict)
	}
	tw.Flush()
	fmt.Fprintf(w, "\np: two-sided Mann–Whitney U over the stored samples; a change is shown where p < %.3g\n", t.Alpha)
	t.countText(w)
}

// JSON writes the table as indented JSON.
func (t Table) JSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(t)
}
