package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/result"
	"github.com/hale-lang/halebench/orchestrator/stamp"
	"github.com/hale-lang/halebench/orchestrator/stats"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Row is one bench in both reports.
type Row struct {
	Bench string `json:"bench"`
	// Old and New are the medians of the table's metric, in its unit
	// (Table.Metric, Table.Unit), whichever metric it is.
	Old      int64    `json:"old_median,omitempty"`
	New      int64    `json:"new_median,omitempty"`
	OldN     int      `json:"old_n"`
	NewN     int      `json:"new_n"`
	DeltaPct *float64 `json:"delta_pct,omitempty"`
	P        *float64 `json:"p,omitempty"`
	Verdict  string   `json:"verdict"` // slower, faster, ~ (no significant change), or why there is no comparison
	// MinP is the smallest p the test can give at OldN+NewN samples;
	// TooFewSamples marks a "~" that no data of these sizes could have
	// turned into a change at the table's alpha (MinP is not below it).
	MinP          *float64 `json:"min_p,omitempty"`
	TooFewSamples bool     `json:"too_few_samples,omitempty"`
	Counts        *Counts  `json:"counts,omitempty"`
	// Ratios are, comparing two ab results, the row's two B/A ratios
	// (comparekinds.go).
	Ratios *Ratios `json:"ratios,omitempty"`
}

// Geomean is the geometric mean of the medians of the benches both
// reports have figures of (benchstat's summary row): the change of a
// typical bench. LeftOut names the benches it is not over (their rows say
// why).
type Geomean struct {
	Old      *float64 `json:"old,omitempty"`
	New      *float64 `json:"new,omitempty"`
	DeltaPct *float64 `json:"delta_pct,omitempty"`
	Benches  int      `json:"benches"`
	LeftOut  []string `json:"left_out,omitempty"`
}

// CompareSchema and CompareKind name the document compare --json prints.
const (
	CompareSchema = "halebench-compare/2"
	CompareKind   = "compare"
)

// ErrSlower is what the compare verb returns with --fail-on-slower when a
// row is significantly slower (higher, for another metric than time).
var ErrSlower = errors.New("a bench is significantly slower in the new report")

// Table is the comparison of two reports.
type Table struct {
	Schema string `json:"schema"`
	Kind   string `json:"kind"`
	// Halebench is the halebench that wrote the JSON (JSON stamps it).
	Halebench *stamp.Tool `json:"halebench,omitempty"`
	// Compares is the kind of the two documents where they are not run
	// reports: ab or xproc (comparekinds.go).
	Compares string `json:"compares,omitempty"`
	Lang     string `json:"lang"`
	// Metric and Unit name what the rows' medians are of, time ("ns")
	// included.
	Metric  string `json:"metric"`
	Unit    string `json:"unit"`
	metric  *judge.Metric
	Alpha   float64 `json:"alpha"`
	OldRun  string  `json:"old_run"`
	NewRun  string  `json:"new_run"`
	OldHost string  `json:"old_host"`
	NewHost string  `json:"new_host"`
	// Warnings are for stderr (the verb prints them there); the JSON
	// keeps them beside the rows.
	Warnings []string `json:"warnings,omitempty"`
	Rows     []Row    `json:"rows"`
	Geomean  *Geomean `json:"geomean,omitempty"`
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
	od, nd, err := readPair(oldPath, newPath)
	if err != nil {
		return Table{}, err
	}
	if od.Kind != result.Run {
		return compareKinds(od, nd, lang, m, alpha)
	}
	old, cur := od.Run, nd.Run
	if lang != "" {
		held := union(Langs(old), Langs(cur))
		if !slices.Contains(held, lang) {
			if len(held) == 0 {
				return Table{}, fmt.Errorf("compare: --lang=%s: neither report holds figures of any language", lang)
			}
			return Table{}, fmt.Errorf("compare: --lang=%s: neither report holds it; give one of %s", lang, strings.Join(held, ", "))
		}
	}
	return Reports(old, cur, lang, m, alpha), nil
}

// Langs are the languages a report holds a cell of, sorted: its subject
// where a bench has the subject's result, and every comparative.
func Langs(r *report.Report) []string {
	set := map[string]bool{}
	for _, b := range r.Benches {
		if b.SubjectResult != nil && r.Subject != "" {
			set[r.Subject] = true
		}
		for l, c := range b.Comparatives {
			if c != nil {
				set[l] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for l := range set {
		out = append(out, l)
	}
	slices.Sort(out)
	return out
}

func union(a, b []string) []string {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
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
	t := Table{Schema: CompareSchema, Kind: CompareKind, Lang: lang, Alpha: alpha, OldRun: old.GeneratedAt, NewRun: cur.GeneratedAt, OldHost: hostLine(old.Host), NewHost: hostLine(cur.Host),
		metric: m, Metric: m.Name, Unit: m.Unit}
	if t.OldHost != t.NewHost {
		t.Warnings = append(t.Warnings, fmt.Sprintf("the reports come from different hosts (%s; %s): differences mix code and machine", t.OldHost, t.NewHost))
	}
	if w, ok := sameSources("reports", old.SourcesDigest, cur.SourcesDigest); ok {
		t.Warnings = append(t.Warnings, w)
	}
	inOld, inNew := slices.Contains(Langs(old), lang), slices.Contains(Langs(cur), lang)
	switch {
	case !inOld && !inNew:
		t.Warnings = append(t.Warnings, fmt.Sprintf("neither report holds figures of %s (they hold %s): nothing to compare; give --lang", lang, orNone(union(Langs(old), Langs(cur)))))
	case !inOld:
		t.Warnings = append(t.Warnings, fmt.Sprintf("only the new report holds figures of %s", lang))
	case !inNew:
		t.Warnings = append(t.Warnings, fmt.Sprintf("only the old report holds figures of %s", lang))
	}
	oldBy := map[string]*report.Bench{}
	for _, b := range old.Benches {
		oldBy[b.Name] = b
	}
	seen := map[string]bool{}
	for _, b := range cur.Benches {
		seen[b.Name] = true
		ob, ok := oldBy[b.Name]
		if !ok {
			t.Rows = append(t.Rows, Row{Bench: b.Name, Verdict: OnlyNew})
			continue
		}
		o, n := langOf(ob, old.Subject, lang), langOf(b, cur.Subject, lang)
		r := row(b.Name, m, o, n, alpha)
		r.Counts = countsOf(o, n)
		t.Rows = append(t.Rows, r)
	}
	for _, b := range old.Benches {
		if !seen[b.Name] {
			seen[b.Name] = true
			t.Rows = append(t.Rows, Row{Bench: b.Name, Verdict: OnlyOld})
		}
	}
	t.Geomean = geomean(t.Rows)
	return t
}

// sameSources is the warning that two documents (what: "reports", "ab
// results") of one sources digest make an A/A comparison; ok false where
// the digests differ or the old document records none.
func sameSources(what, old, cur string) (string, bool) {
	if old == "" || old != cur {
		return "", false
	}
	return "both " + what + " measured the same bench sources (an A/A comparison)", true
}

// The verdicts of a row without a comparison (besides "no samples …",
// which names the cells' statuses).
const (
	OnlyNew = "only in the new report"
	OnlyOld = "only in the old report"
	Neither = "in neither report"
)

func orNone(langs []string) string {
	if len(langs) == 0 {
		return "none"
	}
	return strings.Join(langs, ", ")
}

// geomean summarises the rows with figures on both sides; nil without rows.
func geomean(rows []Row) *Geomean {
	return geomeanOf(rows, func(r Row) (float64, float64, bool) {
		return float64(r.Old), float64(r.New), r.DeltaPct != nil && r.Old > 0 && r.New > 0
	})
}

// geomeanOf is the geometric mean of the old and new figures pair gives
// of each row (ok false: the row has none, and is left out); nil without
// rows.
func geomeanOf(rows []Row, pair func(Row) (old, new float64, ok bool)) *Geomean {
	if len(rows) == 0 {
		return nil
	}
	g := &Geomean{}
	var lo, ln float64
	for _, r := range rows {
		o, n, ok := pair(r)
		if !ok {
			g.LeftOut = append(g.LeftOut, r.Bench)
			continue
		}
		lo += math.Log(o)
		ln += math.Log(n)
		g.Benches++
	}
	if g.Benches > 0 {
		o, n := math.Exp(lo/float64(g.Benches)), math.Exp(ln/float64(g.Benches))
		d := (n/o - 1) * 100
		g.Old, g.New, g.DeltaPct = &o, &n, &d
	}
	return g
}

// Worse says whether a row is significantly slower (time) or higher
// (another metric): what --fail-on-slower fails on.
func (t Table) Worse() bool {
	for _, r := range t.Rows {
		if r.Verdict == "slower" || r.Verdict == "higher" {
			return true
		}
	}
	return false
}

// hostLine is the host a document was measured on, as compare's header
// names it, whatever the document's kind.
func hostLine(h report.Host) string {
	cpu := h.CPUModel
	if cpu == "" {
		cpu = "unknown CPU"
	}
	return fmt.Sprintf("%s, %d CPUs, kernel %s", cpu, h.LogicalCPUs, h.Kernel)
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
	case o == nil && n == nil:
		r.Verdict = Neither
		return r
	case o == nil:
		r.Verdict = OnlyNew
		return r
	case n == nil:
		r.Verdict = OnlyOld
		return r
	}
	ov, nv := m.Read(o.Cell()), m.Read(n.Cell())
	switch {
	case !usable(ov) && !usable(nv):
		r.Verdict = fmt.Sprintf("no samples in either report (old %s, new %s)", status(o), status(n))
		return r
	case !usable(ov):
		r.Verdict = fmt.Sprintf("no samples in the old report (%s)", status(o))
		return r
	case !usable(nv):
		r.Verdict = fmt.Sprintf("no samples in the new report (%s)", status(n))
		return r
	}
	r.Old, r.New = ov.Median, nv.Median
	r.OldN, r.NewN = len(ov.Samples), len(nv.Samples)
	d := (float64(nv.Median)/float64(ov.Median) - 1) * 100
	p := math.Min(1, 2*math.Min(stats.MannWhitneyGreater(nv.Samples, ov.Samples), stats.MannWhitneyGreater(ov.Samples, nv.Samples)))
	minP := stats.MannWhitneyMinP(r.OldN, r.NewN)
	r.DeltaPct, r.P, r.MinP = &d, &p, &minP
	up, down := "slower", "faster"
	if m != judge.MetricTime {
		up, down = "higher", "lower"
	}
	switch {
	case p >= alpha:
		r.Verdict = "~"
		r.TooFewSamples = minP >= alpha
	case d > 0:
		r.Verdict = up
	default:
		r.Verdict = down
	}
	return r
}

func status(l *report.Lang) string {
	if l.Status == "" {
		return "no status"
	}
	return string(l.Status)
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
// significant, "~" where it is not, marked ¹ where the samples are too few
// for any change to be, then the geomean row. It writes results only: the
// verb prints Warnings on stderr.
func (t Table) Text(w io.Writer) {
	if t.Compares != "" {
		t.kindText(w)
		return
	}
	// Everything but the figures comes from the two report files: cleaned.
	c := termtext.Clean
	fmt.Fprintf(w, "%s: old %s on %s\n%s  new %s on %s\n", c(t.Lang), c(t.OldRun), c(t.OldHost), strings.Repeat(" ", len(t.Lang)), c(t.NewRun), c(t.NewHost))
	if t.metric != judge.MetricTime {
		fmt.Fprintf(w, "metric: %s (%s)\n", c(t.Metric), c(t.Unit))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "bench\told\tnew\tdelta\tp\tn\tverdict")
	var few []string // the sizes of the rows marked ¹, each once
	for _, r := range t.Rows {
		if r.DeltaPct == nil {
			fmt.Fprintf(tw, "%s\t—\t—\t—\t—\t—\t%s\n", c(r.Bench), c(r.Verdict))
			continue
		}
		delta := "~"
		if r.Verdict != "~" {
			delta = fmt.Sprintf("%+.1f%%", *r.DeltaPct)
		}
		verdict := r.Verdict
		if r.TooFewSamples {
			verdict += " ¹"
			if size := fmt.Sprintf("%d+%d the smallest p it can give is %.3g", r.OldN, r.NewN, *r.MinP); !slices.Contains(few, size) {
				few = append(few, size)
			}
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\tp=%.3f\t%d+%d\t%s\n", c(r.Bench), t.figure(r.Old), t.figure(r.New), delta, *r.P, r.OldN, r.NewN, verdict)
	}
	if g := t.Geomean; g != nil && g.Benches > 0 {
		fmt.Fprintf(tw, "geomean\t%s\t%s\t%+.1f%%\n", t.figure(int64(math.Round(*g.Old))), t.figure(int64(math.Round(*g.New))), *g.DeltaPct)
	}
	tw.Flush()
	fmt.Fprintln(w)
	t.foot(w, few, "benches both reports", "the stored samples")
	t.countText(w)
}

// foot says what the marks and the test are, under any kind's table: the
// sizes at which the test cannot reach alpha (few), what the geomean is
// over (rows: "benches both reports"), and what p is computed over.
func (t Table) foot(w io.Writer, few []string, rows, over string) {
	if len(few) > 0 {
		fmt.Fprintf(w, "¹ too few samples for the test to reach p < %.3g: at %s; need ≥ %d samples a side\n",
			t.Alpha, strings.Join(few, ", at "), stats.MannWhitneyNeed(t.Alpha))
	}
	if g := t.Geomean; g != nil {
		fmt.Fprintf(w, "geomean: over the %d %s have figures of", g.Benches, rows)
		if len(g.LeftOut) > 0 {
			fmt.Fprintf(w, "; left out (see their rows): %s", termtext.Clean(strings.Join(g.LeftOut, ", ")))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "p: two-sided Mann–Whitney U over %s; a change is shown where p < %.3g\n", over, t.Alpha)
}

// JSON writes the table as indented JSON.
func (t Table) JSON(w io.Writer) error {
	t.Halebench = stamp.This()
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(t)
}

// Give is compare's output of t: its warnings on warn, the table (JSON when
// asJSON) on out, and ErrSlower when failOnSlower and a row is worse.
func (t Table) Give(out, warn io.Writer, asJSON, failOnSlower bool) error {
	for _, w := range t.Warnings {
		fmt.Fprintln(warn, "halebench: compare: warning:", termtext.Clean(w))
	}
	var err error
	if asJSON {
		err = t.JSON(out)
	} else {
		t.Text(out)
	}
	if err == nil && failOnSlower && t.Worse() {
		return ErrSlower
	}
	return err
}
