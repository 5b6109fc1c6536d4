// The numbers behind a category's charts, as a table: what a chart draws,
// a reader (or a screen reader) can also read.

package render

import (
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// numbers is a category's table: a row per bench, a column per language,
// each cell the language's median with its unit, its ratio to the
// subject's and its memory peak.
type numbers struct {
	Caption string
	Heads   []string
	Rows    []numberRow
}

type numberRow struct {
	Bench string
	Cells []numberCell
}

// numberCell is one language's figures on a bench: its median with its
// unit ("1.30 ms"), its ratio to the subject's ("1.05×"), its memory peak
// and its status where it is not plain ok; Time alone says "—" (no
// result) or the status when it measured nothing.
type numberCell struct {
	Time, Ratio, Mem string
	Status           string
}

func newNumbers(r *report.Report, benches []*report.Bench) numbers {
	subj := subjectTitle(r)
	n := numbers{Caption: "each language's median elapsed time (unit in the cell), in parentheses its median over " +
		subj + "'s (> 1: " + subj + " is faster), under it its memory peak; a status where it measured nothing, — where it has no result."}
	langs := report.Langs(r)
	for _, l := range langs {
		n.Heads = append(n.Heads, l.Title)
	}
	for _, b := range benches {
		row := numberRow{Bench: b.Name}
		sm := figures(b.SubjectResult).Median
		for _, l := range langs {
			row.Cells = append(row.Cells, newNumberCell(report.LangResult(r, b, l.Name), l.Name == r.Subject, sm))
		}
		n.Rows = append(n.Rows, row)
	}
	return n
}

// newNumberCell is a language's cell, its ratio against subjectMedian
// unless it is the subject.
func newNumberCell(res *report.Lang, subject bool, subjectMedian int64) numberCell {
	if res == nil {
		return numberCell{Time: "—"}
	}
	med := figures(res).Median
	if med <= 0 {
		if res.Status == "" {
			return numberCell{Time: "—"}
		}
		return numberCell{Time: string(res.Status)}
	}
	c := numberCell{Time: figure(med)}
	if !subject && subjectMedian > 0 {
		ratio := float64(med) / float64(subjectMedian)
		if res.RatioVsSubject != nil {
			ratio = *res.RatioVsSubject
		}
		c.Ratio = report.FormatRatio(ratio) + "×"
	}
	if m := memText(res); m != "—" {
		c.Mem = m
	}
	if res.Status != outcome.OK && res.Status != "" {
		c.Status = string(res.Status)
	}
	return c
}
