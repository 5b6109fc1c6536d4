package result

import (
	"io"

	"github.com/hale-lang/halebench/orchestrator/report"
)

// Text writes a document as its verb prints it on a terminal: a run's
// grid, an ab's comparison grid, an xproc's two tables.
func Text(w io.Writer, d *Doc) {
	switch d.Kind {
	case Run:
		report.Grid(w, d.Run)
	case AB:
		report.ABGrid(w, d.AB)
	default:
		report.Tables(w, d.Xproc)
	}
}

// Markdown writes a document as Markdown: a run's README snapshot, an
// ab's release-notes table, an xproc's two tables.
func Markdown(w io.Writer, d *Doc) {
	switch d.Kind {
	case Run:
		report.Markdown(w, d.Run)
	case AB:
		report.ABMarkdown(w, d.AB)
	default:
		report.XprocMarkdown(w, d.Xproc)
	}
}

// Show writes a document as the show verb prints it: Markdown, or (not
// markdown) its text.
func Show(w io.Writer, d *Doc, markdown bool) {
	if markdown {
		Markdown(w, d)
		return
	}
	Text(w, d)
}
