package render

import (
	"fmt"
	"html/template"
	"io"
	"sort"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// view is what the page template reads.
type view struct {
	R          *report.Report
	Path       string
	Subject    string
	Version    string
	Date       string
	Verdict    string
	Counts     []count
	Problems   []problem
	Images     []imageRow
	Categories []categoryView
	History    int
	Langs      []langKey
}

type count struct {
	Status outcome.Status
	N      int
}

// langKey is a language in the legend: its marker (shape and colour)
// and its title.
type langKey struct {
	Name, Title string
	Mark        template.HTML
}

type problem struct {
	Bench, Lang, Detail string
	Status              outcome.Status
	Order               int
	Size                *Size // how much it moved, for a verdict on a metric
	Output              bool  // Detail is a program's or a build's output (set in code), not a sentence
}

type imageRow struct {
	Kind, Lang, Ref, Digest, Version string
}

type categoryView struct {
	Title     string
	Chart     template.HTML // "" when no language measured any of its benches
	ChartNote string
	Numbers   numbers
	Benches   []benchView
	Counts    *countTable // nil when the run counted nothing
	Metrics   []metricTable
}

type benchView struct {
	B        *report.Bench
	Class    string // the bench status's, in context (judge.OfBench)
	Gate     Gate
	Strip    template.HTML // "" when no language measured a sample
	Trend    template.HTML
	Baseline string
	// CountTrend is the subject's instructions across reports.
	CountTrend template.HTML
	// Samples and TrendRows are the strip plot's and the trends' figures
	// as tables: no figure is only in a chart's tooltip.
	Samples   []sampleRow
	TrendRows []trendRow
}

// sampleRow is one language's samples on a bench, fastest first.
type sampleRow struct {
	Lang, Median, Samples, Mem string
}

// trendRow is one report's point of a bench's trends.
type trendRow struct {
	Label, Date, Median, Count string
	Status                     outcome.Status
	run                        int // the report's place in date order
}

// Render writes one self-contained HTML page for the newest of runs; the
// others, when there are any, give each bench a trend of the subject's
// median across them.
func Render(w io.Writer, runs []*Run) error {
	if len(runs) == 0 {
		return fmt.Errorf("no report to render")
	}
	main := runs[len(runs)-1]
	r := main.Report
	v := view{R: r, Path: main.Path, Subject: subjectTitle(r), Version: report.SubjectVersion(r),
		Date: r.GeneratedAt, Verdict: verdict(r), History: len(runs)}
	for _, l := range report.Langs(r) {
		v.Langs = append(v.Langs, langKey{l.Name, l.Title, keyMark(l.Name)})
	}
	v.Counts = counts(r)
	v.Problems = problems(main)
	v.Images = images(r)
	v.Categories = categoryViews(runs)
	return page.ExecuteTemplate(w, "layout", v)
}

// categoryViews are the newest run's categories, each with its chart and
// benches; a bench no category names goes under "Other benches".
func categoryViews(runs []*Run) []categoryView {
	main := runs[len(runs)-1]
	r := main.Report
	byName := map[string]*report.Bench{}
	for _, b := range r.Benches {
		byName[b.Name] = b
	}
	placed := map[string]bool{}
	var out []categoryView
	for _, c := range withOther(r) {
		var benches []*report.Bench
		for _, n := range c.Benches {
			if b := byName[n]; b != nil && !placed[n] {
				placed[n] = true
				benches = append(benches, b)
			}
		}
		if len(benches) == 0 {
			continue
		}
		cv := categoryView{Title: c.Title, Numbers: newNumbers(r, benches)}
		cv.Chart, cv.ChartNote = metricChart(r, charted, c.Title, benches)
		for _, b := range benches {
			cv.Benches = append(cv.Benches, newBenchView(runs, b))
		}
		cv.Counts = newCountTable(r, benches)
		cv.Metrics = newMetricTables(r, c.Title, benches)
		out = append(out, cv)
	}
	return out
}

// metricChart is a category's chart of metric m and the note under it: each
// language's ratio to the subject, or its medians where the subject has no
// figure of m there.
func metricChart(r *report.Report, m *judge.Metric, title string, benches []*report.Bench) (template.HTML, string) {
	why := "no " + subjectTitle(r) + " data"
	if hasSubjectData(m, benches) {
		why = "no other language beside " + subjectTitle(r)
		if c := ratioChart(r, m, title, benches); c != "" {
			return c, "Marker: the language's median over the subject's (its shape and colour in the key); whisker: its fastest to slowest sample over the subject's median. The table gives the figures."
		}
	}
	return medianChart(r, m, title, why, benches), "Marker: the language's median (its shape and colour in the key); whisker: its fastest to slowest sample. The table gives the figures."
}

// withOther is the report's categories and, when some bench is in none,
// an "other" category of those.
func withOther(r *report.Report) []report.Category {
	cats := append([]report.Category(nil), r.Categories...)
	var rest []string
	for _, b := range r.Benches {
		found := false
		for _, c := range cats {
			for _, n := range c.Benches {
				found = found || n == b.Name
			}
		}
		if !found {
			rest = append(rest, b.Name)
		}
	}
	if len(rest) > 0 {
		cats = append(cats, report.Category{Name: "other", Title: "Other benches", Benches: rest})
	}
	return cats
}

// newBenchView is a bench's section: its gate line, strip plot, baseline
// and, with several runs, its trend.
func newBenchView(runs []*Run, b *report.Bench) benchView {
	main := runs[len(runs)-1]
	r := main.Report
	bv := benchView{B: b, Class: benchClass(b), Gate: main.Gate[b.Name], Strip: stripPlot(r, b)}
	if b.BaselineElapsedNs != nil {
		bv.Baseline = report.FormatNs(*b.BaselineElapsedNs)
		if b.Tolerance != nil {
			bv.Baseline += fmt.Sprintf(" (tolerance %.0f%%)", *b.Tolerance*100)
		}
	}
	if bv.Strip != "" {
		bv.Samples = sampleRows(r, b)
	}
	if len(runs) > 1 {
		pts, counts := trend(runs, r.Subject, b.Name), countTrend(runs, r.Subject, b.Name)
		if len(pts) > 0 {
			bv.Trend = trendChart(b.Name, pts)
		}
		if len(counts) > 0 {
			bv.CountTrend = trendOf(b.Name, counts, judge.Instructions.Format, "the subject's "+judge.Instructions.Name)
		}
		bv.TrendRows = trendRows(pts, counts)
	}
	return bv
}

// sampleRows are the strip plot's figures: each language's samples.
func sampleRows(r *report.Report, b *report.Bench) []sampleRow {
	var out []sampleRow
	for _, l := range report.Langs(r) {
		res := report.LangResult(r, b, l.Name)
		if res == nil {
			continue
		}
		v := figures(res)
		samples := append([]int64(nil), v.Samples...)
		sort.Slice(samples, func(i, j int) bool { return samples[i] < samples[j] })
		var each []string
		for _, x := range samples {
			if x > 0 {
				each = append(each, figure(x))
			}
		}
		row := sampleRow{Lang: l.Title, Median: string(res.Status), Samples: strings.Join(each, ", "), Mem: memText(res)}
		if v.Median > 0 {
			row.Median = figure(v.Median)
		}
		if row.Samples == "" {
			row.Samples = "—"
		}
		out = append(out, row)
	}
	return out
}

// trendRows are the trends' figures, a row per report in date order: the
// subject's median and, where the count lane counted it, its
// instructions.
func trendRows(pts, counts []trendPoint) []trendRow {
	var out []trendRow
	byRun := map[int]int{}
	for _, p := range pts {
		byRun[p.run] = len(out)
		out = append(out, trendRow{Label: p.label, Date: p.date, Median: figure(int64(p.median)), Count: "—", Status: p.status, run: p.run})
	}
	for _, c := range counts {
		if i, ok := byRun[c.run]; ok {
			out[i].Count = judge.Instructions.Format(int64(c.median))
			continue
		}
		out = append(out, trendRow{Label: c.label, Date: c.date, Median: "—", Count: judge.Instructions.Format(int64(c.median)), Status: c.status, run: c.run})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].run < out[j].run })
	return out
}

// WriteFile renders runs to path through report's atomic writer: never through a
// link, whole or not at all.
func WriteFile(path string, runs []*Run) error {
	return report.AtomicWrite(path, 0o644, func(w io.Writer) error { return Render(w, runs) })
}

// Page is the report verb's page of src: written to path (said on log,
// with what it draws), or to out when path is "".
func Page(out, log io.Writer, path string, src Source) error {
	if path == "" {
		return src.Render(out)
	}
	if err := report.AtomicWrite(path, 0o644, src.Render); err != nil {
		return err
	}
	fmt.Fprintf(log, "report: %s (%s)\n", path, src.what())
	return nil
}

// NextTo writes the HTML page of report r, which a run just wrote to
// jsonPath, beside it (run-….json → run-….html) and returns its path. The
// page is drawn from r as it is, not from the file read back.
func NextTo(jsonPath string, r *report.Report) (string, error) {
	path := strings.TrimSuffix(jsonPath, ".json") + ".html"
	return path, WriteFile(path, []*Run{RunOf(jsonPath, r)})
}

func hasSubjectData(m *judge.Metric, benches []*report.Bench) bool {
	for _, b := range benches {
		if figuresOf(m, b.SubjectResult).Median > 0 {
			return true
		}
	}
	return false
}

func subjectTitle(r *report.Report) string {
	for _, l := range report.Langs(r) {
		if l.Name == r.Subject {
			return l.Title
		}
	}
	return r.Subject
}

// verdict is the run's one-line outcome.
func verdict(r *report.Report) string {
	switch r.Status {
	case outcome.OK:
		if r.SubjectStatus != "" && r.SubjectStatus != string(outcome.Available) {
			return "ok: nothing gated (subject " + r.SubjectStatus + ")"
		}
		return "ok"
	case "":
		return "unknown"
	}
	return string(r.Status)
}

func counts(r *report.Report) []count {
	var tally judge.Tally
	for _, b := range r.Benches {
		tally.Add(b.Status, outcome.OfBench(b.Status, b.BaselineElapsedNs != nil))
	}
	var out []count
	for _, c := range tally.Counts() {
		out = append(out, count{c.Status, c.N})
	}
	return out
}

// statusRank orders what needs a reader first (judge.Severity decides).
func statusRank(st outcome.Status) int { return st.Severity().Rank() }

func statusClass(s outcome.Status) string { return severityClass(s.Severity()) }

func benchClass(b *report.Bench) string {
	return severityClass(outcome.OfBench(b.Status, b.BaselineElapsedNs != nil))
}

func severityClass(v outcome.Severity) string {
	switch v {
	case outcome.Fails, outcome.Regresses:
		return "bad"
	case outcome.Attention, outcome.Unjudged:
		return "warn"
	case outcome.Absent:
		return "muted"
	}
	return "good"
}

func problems(run *Run) []problem {
	r := run.Report
	var out []problem
	for _, b := range r.Benches {
		// The subject's own absence is said once in the header, not per
		// bench; a bench its baseline holds and its subject lost is not quiet.
		if sev := outcome.OfBench(b.Status, b.BaselineElapsedNs != nil); !sev.Quiet() {
			p := problem{Bench: b.Name, Lang: r.Subject + " (gate)", Status: b.Status, Order: sev.Rank(), Detail: clip(b.Verdict, 300), Size: benchSize(b)}
			if p.Detail == "" {
				p.Detail = why(b.CheckOf(charted))
			}
			out = append(out, p)
		}
		if g, ok := run.Gate[b.Name]; ok {
			if g.Status != "" && !g.Status.Severity().Quiet() {
				out = append(out, problem{Bench: b.Name, Lang: r.Subject + " (verdict)", Status: g.Status, Order: statusRank(g.Status), Size: metricSize(b, charted), Detail: why(b.CheckOf(charted))})
			}
			for _, m := range g.Metrics {
				if !m.Status.Severity().Quiet() {
					p := problem{Bench: b.Name, Lang: r.Subject + " (" + m.Name + ")", Status: m.Status, Detail: "band " + m.Band, Order: statusRank(m.Status)}
					if metric, ok := judge.ByName(m.Name); ok {
						p.Size = metricSize(b, metric)
						if w := why(b.CheckOf(metric)); w != "" {
							p.Detail = w
						}
					}
					out = append(out, p)
				}
			}
		}
		for _, l := range report.Langs(r) {
			res := report.LangResult(r, b, l.Name)
			if res == nil || res.Status.Severity().Quiet() {
				continue
			}
			if l.Name == r.Subject && res.Status == b.Status {
				continue
			}
			detail := res.Detail
			if detail == "" {
				detail = res.BuildError
			}
			out = append(out, problem{Bench: b.Name, Lang: l.Name, Status: res.Status, Detail: clip(detail, 300), Order: statusRank(res.Status), Output: true})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Order < out[j].Order })
	return out
}

// why is a check's reason in words, "" without one.
func why(c *report.Check) string {
	if c == nil {
		return ""
	}
	return clip(c.Why, 300)
}

func images(r *report.Report) []imageRow {
	var out []imageRow
	if r.Base.Ref != "" {
		out = append(out, imageRow{Kind: "base", Ref: r.Base.Ref, Digest: r.Base.ID, Version: r.Base.Origin})
	}
	for _, l := range report.Langs(r) {
		if tc, ok := r.Images[l.Name]; ok {
			ref := tc.Ref
			if ref == "" {
				ref = string(tc.Status) + ": " + clip(tc.Reason, 160)
			}
			out = append(out, imageRow{Kind: "toolchain", Lang: l.Name, Ref: ref, Digest: tc.Digest, Version: tc.Version})
		}
	}
	for _, l := range report.Langs(r) {
		if bi, ok := r.BenchImages[l.Name]; ok {
			d := bi.Digest
			if d == "" {
				d = bi.ID
			}
			out = append(out, imageRow{Kind: "benches", Lang: l.Name, Ref: bi.Ref, Digest: d})
		}
	}
	return out
}

// trend is the subject's median on a bench in each run, in date order.
func trend(runs []*Run, subject, bench string) []trendPoint {
	var pts []trendPoint
	for i, run := range runs {
		r := run.Report
		var b *report.Bench
		for _, x := range r.Benches {
			if x.Name == bench {
				b = x
			}
		}
		if b == nil {
			continue
		}
		res := report.LangResult(r, b, subject)
		if figures(res).Median <= 0 {
			continue
		}
		p := trendPoint{median: float64(figures(res).Median), date: shortDate(r.GeneratedAt), status: b.Status, run: i}
		if tc, ok := r.Images[subject]; ok && tc.Version != "" {
			p.label = report.SubjectVersion(&report.Report{Subject: subject, Images: r.Images})
			p.label = strings.TrimSpace(strings.TrimPrefix(p.label, subjectTitle(r)))
		} else {
			p.label = "?"
		}
		if b.BaselineElapsedNs != nil && r.Subject == subject {
			band := 0.0
			if g, ok := run.Gate[bench]; ok && g.BandFrac > 0 {
				band = g.BandFrac
			} else if b.Tolerance != nil {
				band = *b.Tolerance
			}
			if band > 0 {
				base := float64(*b.BaselineElapsedNs)
				p.lo, p.hi = base*(1-band), base*(1+band)
			}
		}
		pts = append(pts, p)
	}
	return pts
}

func shortDate(s string) string {
	if len(s) >= 10 {
		return s[:10]
	}
	return s
}

func shortDigest(d string) string {
	if i := strings.Index(d, ":"); i >= 0 && len(d) > i+13 {
		return d[:i+13] + "…"
	}
	return d
}

func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
