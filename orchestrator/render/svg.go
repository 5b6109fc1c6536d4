package render

import (
	"fmt"
	"github.com/hale-lang/halebench/orchestrator/judge"
	"html"
	"html/template"
	"math"
	"sort"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

// The charts are SVG written here, in the page: no script, no font, no
// network. Sizes are in viewBox units; the page scales them to its width.

// colour is a language's one colour on every chart of the page (its
// toolchain entry's), grey for a language the table does not know.
func colour(lang string) string {
	if l, ok := suite.ByName(lang); ok && l.Colour != "" {
		return l.Colour
	}
	return "#495057"
}

// logAxis maps values in [lo, hi] onto [x0, x1] on a log scale.
type logAxis struct{ lo, hi, x0, x1 float64 }

func newLogAxis(vals []float64, x0, x1 float64, include ...float64) logAxis {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range append(vals, include...) {
		if v > 0 && !math.IsInf(v, 0) && !math.IsNaN(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if math.IsInf(lo, 1) {
		lo, hi = 1, 10
	}
	// A little room either side, and never a zero-width axis.
	lo, hi = lo/1.25, hi*1.25
	if hi/lo < 4 {
		mid := math.Sqrt(lo * hi)
		lo, hi = mid/2, mid*2
	}
	return logAxis{lo, hi, x0, x1}
}

func (a logAxis) x(v float64) float64 {
	if v <= 0 {
		v = a.lo
	}
	f := (math.Log10(v) - math.Log10(a.lo)) / (math.Log10(a.hi) - math.Log10(a.lo))
	return a.x0 + f*(a.x1-a.x0)
}

// ticks are the 1-2-5 values inside the axis, thinned to at most max.
func (a logAxis) ticks(max int) []float64 {
	var all []float64
	for e := math.Floor(math.Log10(a.lo)); e <= math.Ceil(math.Log10(a.hi)); e++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, e)
			if v >= a.lo && v <= a.hi {
				all = append(all, v)
			}
		}
	}
	if len(all) <= max {
		return all
	}
	var decades []float64
	for _, v := range all {
		if m := v / math.Pow(10, math.Floor(math.Log10(v)+1e-9)); math.Abs(m-1) < 1e-6 {
			decades = append(decades, v)
		}
	}
	for len(decades) > max {
		var half []float64
		for i := 0; i < len(decades); i += 2 {
			half = append(half, decades[i])
		}
		decades = half
	}
	return decades
}

func f1(v float64) string { return fmt.Sprintf("%.1f", v) }

func esc(s string) string { return html.EscapeString(s) }

// svgDoc collects the elements of one chart.
type svgDoc struct {
	b    strings.Builder
	w, h float64
}

func (d *svgDoc) add(format string, args ...any) { fmt.Fprintf(&d.b, format, args...) }

func (d *svgDoc) html(class, label string) template.HTML {
	return template.HTML(fmt.Sprintf(`<svg class="%s" role="img" aria-label="%s" viewBox="0 0 %s %s" xmlns="http://www.w3.org/2000/svg">%s</svg>`,
		class, esc(label), f1(d.w), f1(d.h), d.b.String()))
}

// xAxis draws the ticks and grid lines of a log axis between y0 and y1.
func (d *svgDoc) xAxis(a logAxis, y0, y1 float64, label func(float64) string) {
	for _, t := range a.ticks(7) {
		x := a.x(t)
		d.add(`<line class="grid" x1="%s" y1="%s" x2="%s" y2="%s"/>`, f1(x), f1(y0), f1(x), f1(y1))
		d.add(`<text class="tick" x="%s" y="%s" text-anchor="middle">%s</text>`, f1(x), f1(y1+13), esc(label(t)))
	}
}

// ratioRow is one language's ratio on one bench.
type ratioRow struct {
	lang             string
	ratio, low, high float64
	mark             string
}

// ratioChart draws a category: a row per bench, a dot per language at its
// ratio to the subject on a log axis, whiskers from the language's fastest
// to slowest sample over the subject's median, and a line at 1.
func ratioChart(r *report.Report, m *judge.Metric, title string, benches []*report.Bench) template.HTML {
	subj := subjectTitle(r)
	const left, right, rowGap = 178.0, 590.0, 6.0
	var langs []string
	for _, l := range report.Langs(r) {
		if l.Name != r.Subject {
			langs = append(langs, l.Name)
		}
	}
	lineH := 11.0
	rowH := float64(len(langs))*lineH + rowGap
	rows, vals := ratioRows(m, benches, langs)
	if len(vals) == 0 {
		return "" // no axis without data: the page says so
	}
	d := &svgDoc{w: 600, h: 24 + float64(len(benches))*rowH + 22}
	a := newLogAxis(vals, left, right, 1)
	top := 16.0
	d.add(`<text class="axis-title" x="%s" y="11">%sratio = language / %s (log scale; &gt; 1: %s %s)</text>`, f1(left), esc(chartLabel(m)), esc(subj), esc(subj), better(m))
	d.xAxis(a, top, d.h-20, func(v float64) string { return report.FormatRatio(v) + "×" })
	d.add(`<line class="one" x1="%s" y1="%s" x2="%s" y2="%s"/>`, f1(a.x(1)), f1(top), f1(a.x(1)), f1(d.h-20))
	for i, b := range benches {
		y := top + float64(i)*rowH
		if i%2 == 1 {
			d.add(`<rect class="band" x="0" y="%s" width="%s" height="%s"/>`, f1(y), f1(right+8), f1(rowH))
		}
		d.add(`<text class="bench" x="%s" y="%s" text-anchor="end">%s</text>`, f1(left-6), f1(y+rowH/2+4), esc(b.Name))
		if len(rows[b.Name]) == 0 {
			d.add(`<text class="none" x="%s" y="%s">no ratio (%s)</text>`, f1(left+4), f1(y+rowH/2+4), esc(string(b.Status)))
			continue
		}
		for j, lang := range langs {
			for _, rr := range rows[b.Name] {
				if rr.lang != lang {
					continue
				}
				cy := y + rowGap/2 + float64(j)*lineH + lineH/2
				c := colour(lang)
				d.add(`<line class="whisker" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`, f1(a.x(rr.low)), f1(cy), f1(a.x(rr.high)), f1(cy), c)
				d.add("%s", mark(lang, a.x(rr.ratio), cy, 3.5, "", b.Name+" "+lang+": "+report.FormatRatio(rr.ratio)+"×"))
				if rr.mark != "" {
					d.add(`<text class="mark" x="%s" y="%s">%s</text>`, f1(a.x(rr.high)+4), f1(cy+3.5), rr.mark)
				}
			}
		}
	}
	return d.html("chart ratio-chart", title)
}

// ratioRows are, per bench, each language's ratio to the subject and its
// whisker, and every value the axis must hold.
func ratioRows(m *judge.Metric, benches []*report.Bench, langs []string) (map[string][]ratioRow, []float64) {
	rows := map[string][]ratioRow{}
	var vals []float64
	for _, b := range benches {
		subj := b.SubjectResult
		if subj == nil || figuresOf(m, subj).Median <= 0 {
			continue
		}
		sm := float64(figuresOf(m, subj).Median)
		for _, lang := range langs {
			res := b.Comparatives[lang]
			if res == nil || figuresOf(m, res).Median <= 0 {
				continue
			}
			rr := ratioRow{lang: lang, ratio: float64(figuresOf(m, res).Median) / sm}
			if m.Headline && res.RatioVsSubject != nil { // the time rule's own ratio
				rr.ratio = *res.RatioVsSubject
			}
			lo, hi := sampleRange(m, res)
			rr.low, rr.high = lo/sm, hi/sm
			if res.Status == outcome.StatusParityMismatch {
				rr.mark = "!"
			}
			rows[b.Name] = append(rows[b.Name], rr)
			vals = append(vals, rr.ratio, rr.low, rr.high)
		}
	}
	return rows, vals
}

// sampleRange is the fastest and slowest measured sample of a language.
func sampleRange(m *judge.Metric, res *report.Lang) (float64, float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range figuresOf(m, res).Samples {
		if s > 0 {
			lo, hi = math.Min(lo, float64(s)), math.Max(hi, float64(s))
		}
	}
	if math.IsInf(lo, 1) {
		m := float64(figuresOf(m, res).Median)
		return m, m
	}
	return lo, hi
}

// medianChart stands in for the ratio chart when there is no ratio to draw
// (why: the subject has no figure of m, or no other language has one):
// each language's median of m per bench on a log axis in m's format.
func medianChart(r *report.Report, m *judge.Metric, title, why string, benches []*report.Bench) template.HTML {
	const left, right, rowGap = 178.0, 590.0, 6.0
	langs := report.Langs(r)
	lineH := 11.0
	rowH := float64(len(langs))*lineH + rowGap
	var vals []float64
	for _, b := range benches {
		for _, l := range langs {
			if res := report.LangResult(r, b, l.Name); res != nil && figuresOf(m, res).Median > 0 {
				lo, hi := sampleRange(m, res)
				vals = append(vals, lo, hi)
			}
		}
	}
	if len(vals) == 0 {
		return "" // no axis without data: the page says so
	}
	d := &svgDoc{w: 600, h: 24 + float64(len(benches))*rowH + 22}
	a := newLogAxis(vals, left, right)
	top := 16.0
	d.add(`<text class="axis-title" x="%s" y="11">median %s (log scale): %s, so no ratios</text>`, f1(left), esc(axisNoun(m)), esc(why))
	d.xAxis(a, top, d.h-20, func(v float64) string { return m.Formatted(int64(math.Round(v))) })
	for i, b := range benches {
		y := top + float64(i)*rowH
		if i%2 == 1 {
			d.add(`<rect class="band" x="0" y="%s" width="%s" height="%s"/>`, f1(y), f1(right+8), f1(rowH))
		}
		d.add(`<text class="bench" x="%s" y="%s" text-anchor="end">%s</text>`, f1(left-6), f1(y+rowH/2+4), esc(b.Name))
		for j, l := range langs {
			res := report.LangResult(r, b, l.Name)
			if res == nil || figuresOf(m, res).Median <= 0 {
				continue
			}
			cy := y + rowGap/2 + float64(j)*lineH + lineH/2
			c := colour(l.Name)
			lo, hi := sampleRange(m, res)
			d.add(`<line class="whisker" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`, f1(a.x(lo)), f1(cy), f1(a.x(hi)), f1(cy), c)
			d.add("%s", mark(l.Name, a.x(float64(figuresOf(m, res).Median)), cy, 3.5, "", b.Name+" "+l.Name+": "+m.Formatted(figuresOf(m, res).Median)))
		}
	}
	return d.html("chart ratio-chart", title)
}

// stripPlot draws one bench: a row per language with every measured sample
// as a dot on a log time axis and the median as a bar, and the memory peak
// (or the language's status) in a column beside it.
func stripPlot(r *report.Report, b *report.Bench) template.HTML {
	const left, right, memX = 84.0, 470.0, 488.0
	langs := report.Langs(r)
	rowH := 18.0
	var vals []float64
	for _, l := range langs {
		if res := report.LangResult(r, b, l.Name); res != nil {
			for _, s := range figures(res).Samples {
				vals = append(vals, float64(s))
			}
		}
	}
	if !anyPositive(vals) {
		return "" // no axis without data: the page says so
	}
	top := 18.0
	d := &svgDoc{w: 600, h: top + float64(len(langs))*rowH + 22}
	a := newLogAxis(vals, left, right)
	d.add(`<text class="axis-title" x="%s" y="11">every sample, elapsed (log scale); bar = median</text>`, f1(left))
	d.add(`<text class="axis-title" x="%s" y="11">memory peak</text>`, f1(memX))
	d.xAxis(a, top, d.h-20, func(v float64) string { return figure(int64(math.Round(v))) })
	for i, l := range langs {
		y := top + float64(i)*rowH
		cy := y + rowH/2
		c := colour(l.Name)
		// The row's name in the text colour, its marker beside it: the
		// language is told by its name and shape, not its colour alone.
		d.add(`<text class="lang" x="%s" y="%s" text-anchor="end">%s</text>`, f1(left-14), f1(cy+4), esc(l.Title))
		d.add("%s", mark(l.Name, left-7, cy, 3.2, "", ""))
		res := report.LangResult(r, b, l.Name)
		if res == nil {
			d.add(`<text class="none" x="%s" y="%s">—</text>`, f1(left+4), f1(cy+4))
			continue
		}
		samples := append([]int64(nil), figures(res).Samples...)
		sort.Slice(samples, func(i, j int) bool { return samples[i] < samples[j] })
		for k, s := range samples {
			if s <= 0 {
				continue
			}
			// Equal samples would hide each other: spread them a little.
			dy := float64(k%3-1) * 3
			d.add("%s", mark(l.Name, a.x(float64(s)), cy+dy, 3, "sample", figure(s)))
		}
		if figures(res).Median > 0 {
			x := a.x(float64(figures(res).Median))
			d.add(`<line class="median" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`, f1(x), f1(cy-7), f1(x), f1(cy+7), c)
		} else {
			d.add(`<text class="status-text" x="%s" y="%s">%s</text>`, f1(left+4), f1(cy+4), esc(string(res.Status)))
		}
		d.add(`<text class="mem" x="%s" y="%s">%s</text>`, f1(memX), f1(cy+4), esc(memText(res)))
	}
	return d.html("chart strip-plot", b.Name+": every sample per language")
}

func anyPositive(vals []float64) bool {
	for _, v := range vals {
		if v > 0 {
			return true
		}
	}
	return false
}

// memText is the language's memory as the memory metric reads it: the
// cgroup peak when the host gave one, else maxrss (said).
func memText(res *report.Lang) string {
	m := judge.MetricMemory
	v, from := m.ReadFrom(res.Cell())
	switch {
	case v.Median <= 0:
		return "—"
	case from == m.OrElse:
		return FormatKB(v.Median) + " rss"
	}
	return FormatKB(v.Median)
}

// FormatKB writes a size given in KiB in its most readable unit.
func FormatKB(kb int64) string {
	v := float64(kb)
	switch {
	case v >= 1<<20:
		return fmt.Sprintf("%.3g GiB", v/(1<<20))
	case v >= 1<<10:
		return fmt.Sprintf("%.3g MiB", v/(1<<10))
	}
	return fmt.Sprintf("%d KiB", kb)
}

// trendPoint is one report's subject median on a bench.
type trendPoint struct {
	label, date string
	median      float64
	lo, hi      float64 // the band, when known
	status      outcome.Status
	run         int // the report's place among the runs, in date order
}

// trendChart draws the subject's median on one bench across reports, one
// point per report in date order, the band shaded where a report had one.
func trendChart(bench string, pts []trendPoint) template.HTML {
	return trendOf(bench, pts, figure, "the subject's median")
}

// trendOf draws a trend whose values format writes (what names them).
func trendOf(bench string, pts []trendPoint, format func(int64) string, what string) template.HTML {
	const left, right, top = 64.0, 580.0, 14.0
	const plotH = 110.0
	d := &svgDoc{w: 600, h: top + plotH + 34}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, p := range pts {
		for _, v := range []float64{p.median, p.lo, p.hi} {
			if v > 0 {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if hi <= lo {
		lo, hi = lo*0.9, hi*1.1
	}
	pad := (hi - lo) * 0.1
	lo, hi = math.Max(0, lo-pad), hi+pad
	y := func(v float64) float64 { return top + plotH - (v-lo)/(hi-lo)*plotH }
	x := func(i int) float64 {
		if len(pts) == 1 {
			return (left + right) / 2
		}
		return left + float64(i)*(right-left)/float64(len(pts)-1)
	}
	for k := 0; k <= 3; k++ {
		v := lo + (hi-lo)*float64(k)/3
		d.add(`<line class="grid" x1="%s" y1="%s" x2="%s" y2="%s"/>`, f1(left), f1(y(v)), f1(right), f1(y(v)))
		d.add(`<text class="tick" x="%s" y="%s" text-anchor="end">%s</text>`, f1(left-4), f1(y(v)+4), format(int64(math.Round(v))))
	}
	trendBand(d, pts, x, y)
	var line []string
	for i, p := range pts {
		line = append(line, f1(x(i))+","+f1(y(p.median)))
	}
	d.add(`<polyline class="trend" points="%s"/>`, strings.Join(line, " "))
	trendPoints(d, pts, x, y, top+plotH, format)
	return d.html("chart trend-chart", bench+": "+what+" across reports")
}

// trendBand shades the band: an area over the consecutive points that have
// one.
func trendBand(d *svgDoc, pts []trendPoint, x func(int) float64, y func(float64) float64) {
	var upper, lower []string
	flush := func() {
		if len(upper) > 0 {
			for i := len(lower) - 1; i >= 0; i-- {
				upper = append(upper, lower[i])
			}
			d.add(`<polygon class="trend-band" points="%s"/>`, strings.Join(upper, " "))
		}
		upper, lower = nil, nil
	}
	for i, p := range pts {
		if p.lo > 0 && p.hi > 0 {
			// A band on one point alone is drawn as a short bar.
			alone := (i == 0 || pts[i-1].lo <= 0) && (i == len(pts)-1 || pts[i+1].lo <= 0)
			if alone {
				upper = append(upper, f1(x(i)-5)+","+f1(y(p.hi)))
				lower = append(lower, f1(x(i)-5)+","+f1(y(p.lo)))
			}
			upper = append(upper, f1(x(i))+","+f1(y(p.hi)))
			lower = append(lower, f1(x(i))+","+f1(y(p.lo)))
			if alone {
				upper = append(upper, f1(x(i)+5)+","+f1(y(p.hi)))
				lower = append(lower, f1(x(i)+5)+","+f1(y(p.lo)))
			}
		} else {
			flush()
		}
	}
	flush()
}

// trendPoints draws each report's point, coloured by its status, and the
// labels under the axis (bottom is the plot's lower edge).
func trendPoints(d *svgDoc, pts []trendPoint, x func(int) float64, y func(float64) float64, bottom float64, format func(int64) string) {
	for i, p := range pts {
		cls := "trend-pt " + statusClass(p.status)
		d.add(`<circle class="%s" cx="%s" cy="%s" r="3.5"><title>%s %s: %s (%s)</title></circle>`, cls, f1(x(i)), f1(y(p.median)), esc(p.label), esc(p.date), format(int64(p.median)), esc(string(p.status)))
		anchor := "middle"
		if len(pts) > 1 && i == 0 {
			anchor = "start"
		} else if len(pts) > 1 && i == len(pts)-1 {
			anchor = "end"
		}
		// Labels thin out when there are many reports.
		if step := (len(pts) + 7) / 8; i%step == 0 || i == len(pts)-1 {
			d.add(`<text class="tick" x="%s" y="%s" text-anchor="%s">%s</text>`, f1(x(i)), f1(bottom+14), anchor, esc(p.label))
			d.add(`<text class="tick" x="%s" y="%s" text-anchor="%s">%s</text>`, f1(x(i)), f1(bottom+26), anchor, esc(p.date))
		}
	}
}
