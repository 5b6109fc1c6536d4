// ab's page: the two sides, what moved first, a forest plot of each
// bench's ratio B/A with its interval and the band, and every figure in a
// table.

package render

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"sort"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/suite"
)

type abView struct {
	R        *report.Result
	Verdict  outcome.Status
	Counts   []count
	Problems []abProblem
	Forest   template.HTML // "" when no bench has a ratio
	Langs    []langKey
	Images   []abImage
}

type abProblem struct {
	Bench, Lang, Detail string
	Status              outcome.Status
	Size                *Size
}

type abImage struct {
	Side, Kind, Lang, Ref, Digest, Version string
}

// ABPage writes ab result r's page.
func ABPage(w io.Writer, r *report.Result) error {
	v := abView{R: r}
	var tally judge.Tally
	// The verdict is the worst bench's (the first of the worst), so an ab
	// whose benches are all faster says faster.
	worst, seen := outcome.Severity(-1), map[string]bool{}
	for _, b := range r.Benches {
		sev := b.Verdict.Severity()
		tally.Add(b.Verdict, sev)
		if sev > worst {
			worst, v.Verdict = sev, b.Verdict
		}
		if !sev.Quiet() && sev > outcome.Fine {
			v.Problems = append(v.Problems, abProblem{Bench: b.Name, Lang: b.Lang, Status: b.Verdict, Detail: clip(b.Detail, 300), Size: abSize(r, b)})
		}
		if !seen[b.Lang] {
			seen[b.Lang] = true
			v.Langs = append(v.Langs, langKey{Name: b.Lang, Title: langTitle(b.Lang), Mark: keyMark(b.Lang)})
		}
	}
	if len(r.Benches) == 0 {
		v.Verdict = "no benches"
	}
	for _, c := range tally.Counts() {
		v.Counts = append(v.Counts, count{c.Status, c.N})
	}
	sort.SliceStable(v.Problems, func(i, j int) bool { return v.Problems[i].Status.Severity() > v.Problems[j].Status.Severity() })
	v.Forest = forest(r)
	for _, s := range r.Sides {
		if s.Base.Ref != "" {
			v.Images = append(v.Images, abImage{Side: s.Name, Kind: "base", Ref: s.Base.Ref, Digest: s.Base.ID, Version: s.Base.Origin})
		}
		for _, lang := range sortedKeys(s.Images) {
			tc := s.Images[lang]
			v.Images = append(v.Images, abImage{Side: s.Name, Kind: "toolchain", Lang: lang, Ref: tc.Ref, Digest: tc.Digest, Version: tc.Version})
		}
	}
	return abPage.ExecuteTemplate(w, "layout", v)
}

func sortedKeys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// langTitle is a language's title in the language table, else its name.
func langTitle(lang string) string {
	if l, ok := suite.ByName(lang); ok {
		return l.Title
	}
	return lang
}

// abSize is a bench's move from A to B: the ratio B/A (Hodges–Lehmann)
// with its Wilcoxon interval at the look's level, and each side's median.
func abSize(r *report.Result, b report.ABBench) *Size {
	if b.Ratio <= 0 || b.MedianA <= 0 || b.MedianB <= 0 {
		return nil
	}
	m := r.MetricOf()
	s := &Size{Metric: m.Name + " B/A", Ratio: ratioMove(b.Ratio), Baseline: "A " + m.Formatted(int64(math.Round(b.MedianA))),
		Now: "B " + m.Formatted(int64(math.Round(b.MedianB))), Unit: "median " + m.Name + ", " + m.Unit}
	if b.RatioHigh > 0 {
		s.Interval = fmt.Sprintf("%.4g%%: %s–%s", 100*b.Level, judge.Sig3(b.RatioLow), judge.Sig3(b.RatioHigh))
		if b.Level <= 0 {
			s.Interval = judge.Sig3(b.RatioLow) + "–" + judge.Sig3(b.RatioHigh)
		}
	}
	return s
}

// forest draws each bench's ratio B/A as its language's marker with its
// interval, the threshold's band shaded and a line at 1, the verdict in
// words at the end of each row.
func forest(r *report.Result) template.HTML {
	var vals []float64
	for _, b := range r.Benches {
		for _, v := range []float64{b.Ratio, b.RatioLow, b.RatioHigh} {
			if v > 0 {
				vals = append(vals, v)
			}
		}
	}
	if len(vals) == 0 {
		return ""
	}
	const left, right, verdictX, rowH, top = 178.0, 520.0, 528.0, 16.0, 18.0
	band := 1 + r.Threshold
	a := newLogAxis(vals, left, right, 1/band, band)
	d := &svgDoc{w: 600, h: top + float64(len(r.Benches))*rowH + 22}
	d.add(`<text class="axis-title" x="%s" y="11">ratio B/A (log scale; &gt; 1: B is slower); shaded: ±%s band</text>`, f1(left), esc(fmt.Sprintf("%.1f%%", 100*r.Threshold)))
	if r.Threshold > 0 {
		d.add(`<rect class="threshold" x="%s" y="%s" width="%s" height="%s"/>`, f1(a.x(1/band)), f1(top), f1(a.x(band)-a.x(1/band)), f1(d.h-20-top))
	}
	d.xAxis(a, top, d.h-20, func(v float64) string { return report.FormatRatio(v) + "×" })
	d.add(`<line class="one" x1="%s" y1="%s" x2="%s" y2="%s"/>`, f1(a.x(1)), f1(top), f1(a.x(1)), f1(d.h-20))
	for i, b := range r.Benches {
		cy := top + float64(i)*rowH + rowH/2
		d.add(`<text class="bench" x="%s" y="%s" text-anchor="end">%s</text>`, f1(left-6), f1(cy+4), esc(b.Name+" ("+b.Lang+")"))
		if b.Ratio <= 0 {
			d.add(`<text class="none" x="%s" y="%s">no ratio</text>`, f1(left+4), f1(cy+4))
		} else {
			if b.RatioHigh > 0 {
				d.add(`<line class="whisker" x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s"/>`, f1(a.x(b.RatioLow)), f1(cy), f1(a.x(b.RatioHigh)), f1(cy), colour(b.Lang))
			}
			d.add("%s", mark(b.Lang, a.x(b.Ratio), cy, 4, "", b.Name+" "+b.Lang+": "+b.RatioText()))
		}
		d.add(`<text class="%s" x="%s" y="%s">%s</text>`, statusClass(b.Verdict), f1(verdictX), f1(cy+4), esc(string(b.Verdict)))
	}
	return d.html("chart forest", "ratio B/A per bench with its interval")
}
