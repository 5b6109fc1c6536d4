package render

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/result"
	"github.com/hale-lang/halebench/orchestrator/stats"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Row is one bench in both reports.
type Row struct {
	Bench string `json:"bench"`
	Old   int64  `json:"old_median_ns,omitempty"`
	New   int64  `json:"new_median_ns,omitempty"`
	// OldMedian and NewMedian are the medians of a metric other than
	// time, in its unit (Table.Unit); time's stay in the fields above.
	OldMedian int64    `json:"old_median,omitempty"`
	NewMedian int64    `json:"new_median,omitempty"`
	OldN      int      `json:"old_n"`
	NewN      int      `json:"new_n"`
	DeltaPct  *float64 `json:"delta_pct,omitempty"`
	P         *float64 `json:"p,omitempty"`
	Verdict   string   `json:"verdict"` // slower, faster, ~ (no significant change), or why there is no comparison
	Counts    *Counts  `json:"counts,omitempty"`
}

// Table is the comparison of two reports.
type Table struct {
	Lang string `json:"lang"`
	// Metric and Unit name what the rows compare where it is not time
	// (time: both empty, as before metrics were chosen).
	Metric   string `json:"metric,omitempty"`
	Unit     string `json:"unit,omitempty"`
	metric   *judge.Metric
	Alpha    float64  `json:"alpha"`
	OldRun   string   `json:"old_run"`
	NewRun   string   `json:"new_run"`
	OldHost  string   `json:"old_host"`
	NewHost  string   `json:"new_host"`
	Warnings []string `json:"warnings,omitempty"`
	Rows     []Row    `json:"rows"`
}

// CompareFiles is the compare verb's table: the run reports stored at oldPath and
// newPath set side by side (Reports) for lang by the sampled metric called
// metric, at significance level alpha, both checked first. Its errors are
// all the user's to fix.
func CompareFiles(oldPath, newPath, lang, metric string, alpha float64) (Table, error) {
	if err := judge.CheckAlpha("compare: --alpha", alpha); err != nil {
		return Table{}, err
	}
	m, ok := judge.ByName(metric)
	if !ok || !m.Sampled() {
		return Table{}, fmt.Errorf("compare: --metric=%s: give one of %s (instructions are set beside every row where both reports counted)", metric, judge.SampledNames())
	}
	old, err := result.ReadRun(oldPath, "compare")
	if err != nil {
		return Table{}, err
	}
	cur, err := result.ReadRun(newPath, "compare")
	if err != nil {
		return Table{}, err
	}
	return Reports(old, cur, lang, m, alpha), nil
}

// Reports compares lang's figures ("" : the new report's subject) of
// metric m (nil: time) in two reports at significance level alpha. m is a
// metric the samples carry (m.Sampled()); the count lane's counts are
// compared beside every row whatever m is.
func Reports(old, cur *report.Report, lang string, m *judge.Metric, alpha float64) Table {
	if lang == "" {
		lang = cur.Subject
	}
	if m == nil {
		m = judge.MetricTime
	}
	t := Table{Lang: lang, Alpha: alpha, OldRun: old.GeneratedAt, NewRun: cur.GeneratedAt, OldHost: host(old), NewHost: host(cur), metric: m}
	if m != judge.MetricTime {
		t.Metric, t.Unit = m.Name, m.Unit
	}
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
		r := row(b.Name, m, o, n, alpha)
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

func usable(v judge.Values) bool {
	return v.Median > 0 && len(v.Samples) > 0
}

// row compares one bench's figures of m: slower or faster for time, higher
// or lower for another metric, ~ where the change is not significant.
func row(name string, m *judge.Metric, o, n *report.Lang, alpha float64) Row {
	r := Row{Bench: name}
	switch {
	case o == nil:
		r.Verdict = "only in the new report"
		return r
	case n == nil:
		r.Verdict = "only in the old report"
		return r
	}
	ov, nv := m.Of(o.Cell()), m.Of(n.Cell())
	if !usable(ov) || !usable(nv) {
		r.Verdict = fmt.Sprintf("no figures (old %s, new %s)", o.Status, n.Status)
		return r
	}
	if m == judge.MetricTime {
		r.Old, r.New = ov.Median, nv.Median
	} else {
		r.OldMedian, r.NewMedian = ov.Median, nv.Median
	}
	r.OldN, r.NewN = len(ov.Samples), len(nv.Samples)
	d := (float64(nv.Median)/float64(ov.Median) - 1) * 100
	p := math.Min(1, 2*math.Min(stats.MannWhitneyGreater(nv.Samples, ov.Samples), stats.MannWhitneyGreater(ov.Samples, nv.Samples)))
	r.DeltaPct, r.P = &d, &p
	up, down := "slower", "faster"
	if m != judge.MetricTime {
		up, down = "higher", "lower"
	}
	switch {
	case p >= alpha:
		r.Verdict = "~"
	case d > 0:
		r.Verdict = up
	default:
		r.Verdict = down
	}
	return r
}

// figure is a median of the table's metric as the text shows it.
func (t Table) figure(v int64) string {
	if t.metric == nil || t.metric == judge.MetricTime {
		return report.FormatNs(v)
	}
	if t.metric.Format != nil {
		return t.metric.Format(v)
	}
	return fmt.Sprintf("%d %s", v, t.metric.Unit)
}

// Text writes the table as benchstat does: a change only where it is
// significant, "~" where it is not.
func (t Table) Text(w io.Writer) {
	// Everything but the figures comes from the two report files: cleaned.
	c := termtext.Clean
	fmt.Fprintf(w, "%s: old %s on %s\n%s  new %s on %s\n", c(t.Lang), c(t.OldRun), c(t.OldHost), strings.Repeat(" ", len(t.Lang)), c(t.NewRun), c(t.NewHost))
	if t.Metric != "" {
		fmt.Fprintf(w, "metric: %s (%s)\n", c(t.Metric), c(t.Unit))
	}
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
		old, cur := r.Old, r.New
		if t.Metric != "" {
			old, cur = r.OldMedian, r.NewMedian
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\tp=%.3f\t%d+%d\t%s\n", c(r.Bench), t.figure(old), t.figure(cur), delta, *r.P, r.OldN, r.NewN, r.Verdict)
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
