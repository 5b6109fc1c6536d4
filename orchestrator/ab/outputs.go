// What the ab verb gives beyond the rounds: the result stored, shown and
// drawn, and its exit's error.

package ab

import (
	"fmt"
	"io"

	"github.com/hale-lang/halebench/orchestrator/render"
	"github.com/hale-lang/halebench/orchestrator/report"
)

// Outputs are ab's outputs: the result stored under Results (as
// ab-<stamp>-<id>.json), shown as JSON, Markdown or (neither) the grid,
// its forest plot page written to HTML ("": none), and ErrSlower with
// FailOnSlower when a bench is slower in B.
type Outputs struct {
	Results        string
	JSON, Markdown bool
	HTML           string
	FailOnSlower   bool
}

// Check refuses, before the engine is dialled, an output that could not
// be written after the rounds: the page's folder missing, or its path a
// link or no regular file.
func (o Outputs) Check() error {
	if o.HTML == "" {
		return nil
	}
	if err := report.CheckWritable(o.HTML); err != nil {
		return fmt.Errorf("--html=%s: %w", o.HTML, err)
	}
	return nil
}

// Give stores res (saying where, or why not, on log), shows it on out and
// writes its page, and returns the verb's error: runErr, else a failure to
// store or to show it, else ErrSlower.
func (o Outputs) Give(res *Result, runErr error, out, log io.Writer) error {
	err := runErr
	if path, werr := report.ABWrite(res, o.Results); werr != nil {
		fmt.Fprintf(log, "ab: the result was not stored: %v\n", werr)
		if err == nil {
			err = werr
		}
	} else {
		fmt.Fprintf(log, "result: %s\n", path)
	}
	if perr := o.show(res, out); perr != nil && err == nil {
		err = perr
	}
	if err == nil && o.FailOnSlower && res.Slower() {
		err = ErrSlower
	}
	return err
}

// show puts res on out (grid, JSON or Markdown) and writes the HTML page
// when asked.
func (o Outputs) show(res *Result, out io.Writer) error {
	switch {
	case o.JSON:
		if err := report.JSON(out, res); err != nil {
			return err
		}
	case o.Markdown:
		report.ABMarkdown(out, res)
	default:
		report.ABGrid(out, res)
	}
	if o.HTML == "" {
		return nil
	}
	if err := report.AtomicWrite(o.HTML, 0o644, func(w io.Writer) error { return render.ABPage(w, res) }); err != nil {
		return fmt.Errorf("--html=%s: %w", o.HTML, err)
	}
	return nil
}
