// xproc's page: the host, what went wrong first, per variant a chart of
// each row's median and the table the terminal prints, and the notes.

package render

import (
	"html/template"
	"io"
	"math"
	"sort"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

type xprocView struct {
	R        *report.XprocReport
	Verdict  outcome.Status
	Counts   []count
	Problems []problem
	Langs    []langKey
	Variants []xprocVariant
	Images   []imageRow
	Merged   bool
}

type xprocVariant struct {
	Name, What string
	Chart      template.HTML // "" when no row has a median
	Rows       []xprocRow
}

type xprocRow struct {
	Title, Median, Ratio, Reader, Producer string
	Status                                 outcome.Status
	Shard                                  int
}

// XprocPage writes xproc report r's page.
func XprocPage(w io.Writer, r *report.XprocReport) error {
	v := xprocView{R: r, Verdict: r.Status, Merged: r.Merged()}
	if v.Verdict == "" {
		v.Verdict = "unknown"
	}
	var tally judge.Tally
	seen := map[string]bool{}
	for _, name := range variantNames(r) {
		rows := r.Variants[name]
		xv := xprocVariant{Name: name, What: report.Variants[name], Chart: xprocChart(name, rows)}
		for _, res := range rows {
			if res == nil {
				continue
			}
			tally.Add(res.Status, res.Status.Severity())
			lang := xprocLang(res.Row)
			if !seen[lang] {
				seen[lang] = true
				v.Langs = append(v.Langs, langKey{Name: lang, Title: langTitle(lang), Mark: keyMark(lang)})
			}
			row := xprocRow{Title: res.Title, Median: string(res.Status), Ratio: "—", Reader: kibText(res.ReaderMemPeakKB),
				Producer: kibText(res.ProdMemPeakKB), Status: res.Status, Shard: res.Shard}
			if res.Reference {
				row.Title += " (reference)"
			}
			if res.Status == outcome.OK {
				row.Median = figure(res.ElapsedNsMedian)
				if res.RatioVsHale != nil {
					row.Ratio = report.FormatRatio(*res.RatioVsHale) + "×"
				}
			}
			xv.Rows = append(xv.Rows, row)
			if sev := res.Status.Severity(); !sev.Quiet() && sev > outcome.Fine {
				v.Problems = append(v.Problems, problem{Bench: name, Lang: res.Title, Status: res.Status, Detail: clip(res.Detail, 300), Order: sev.Rank()})
			}
		}
		v.Variants = append(v.Variants, xv)
	}
	for _, c := range tally.Counts() {
		v.Counts = append(v.Counts, count{c.Status, c.N})
	}
	sort.SliceStable(v.Problems, func(i, j int) bool { return v.Problems[i].Order < v.Problems[j].Order })
	// Every language whose image the report holds, in the table's order.
	langs := &report.Report{Base: r.Base, Images: r.Images, BenchImages: r.BenchImages, Subject: r.Subject}
	for _, l := range suite.All {
		_, tc := r.Images[l.Name]
		_, bi := r.BenchImages[l.Name]
		if tc || bi {
			langs.Settings.Languages = append(langs.Settings.Languages, l.Name)
		}
	}
	v.Images = images(langs)
	return xprocPage.ExecuteTemplate(w, "layout", v)
}

// variantNames are the report's variants, small and large first.
func variantNames(r *report.XprocReport) []string {
	names := []string{}
	for _, n := range []string{"small", "large"} {
		if _, ok := r.Variants[n]; ok {
			names = append(names, n)
		}
	}
	for _, n := range sortedKeys(r.Variants) {
		if n != "small" && n != "large" {
			names = append(names, n)
		}
	}
	return names
}

// xprocLang is the language of an xproc row: the one whose table lists
// the row's key, else the key itself.
func xprocLang(row string) string {
	for _, l := range suite.All {
		for _, x := range l.XProc {
			if x.Key == row {
				return l.Name
			}
		}
	}
	return row
}

func kibText(p *int64) string {
	if p == nil {
		return "—"
	}
	return FormatKB(*p)
}

// xprocChart draws a variant: a row per pair, its language's marker at its
// median on a log time axis, a whisker from its fastest to its slowest
// run.
func xprocChart(variant string, rows []*report.XprocResult) template.HTML {
	var vals []float64
	for _, res := range rows {
		if res != nil && res.ElapsedNsMedian > 0 {
			vals = append(vals, float64(res.ElapsedNsMedian))
			for _, s := range res.ElapsedNsSamples {
				if s > 0 {
					vals = append(vals, float64(s))
				}
			}
		}
	}
	if len(vals) == 0 {
		return ""
	}
	const left, right, rowH, top = 200.0, 590.0, 16.0, 18.0
	a := newLogAxis(vals, left, right)
	d := &svgDoc{w: 600, h: top + float64(len(rows))*rowH + 22}
	d.add(`<text class="axis-title" x="%s" y="11">median elapsed (log scale); whisker: fastest to slowest run</text>`, f1(left))
	d.xAxis(a, top, d.h-20, func(v float64) string { return figure(int64(math.Round(v))) })
	for i, res := range rows {
		if res == nil {
			continue
		}
		cy := top + float64(i)*rowH + rowH/2
		d.add(`<text class="bench" x="%s" y="%s" text-anchor="end">%s</text>`, f1(left-6), f1(cy+4), esc(res.Title))
		if res.ElapsedNsMedian <= 0 {
			d.add(`<text class="status-text" x="%s" y="%s">%s</text>`, f1(left+4), f1(cy+4), esc(string(res.Status)))
			continue
		}
		lang := xprocLang(res.Row)
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, s := range res.ElapsedNsSamples {
			if s > 0 {
				lo, hi = math.Min(lo, float64(s)), math.Max(hi, float64(s))
			}
		}
		if !math.IsInf(lo, 1) {
			d.add(`<line class="whisker" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`, f1(a.x(lo)), f1(cy), f1(a.x(hi)), f1(cy), colour(lang))
		}
		d.add("%s", mark(lang, a.x(float64(res.ElapsedNsMedian)), cy, 4, "", res.Title+": "+figure(res.ElapsedNsMedian)))
	}
	return d.html("chart xproc-chart", variant+": median per pair")
}
