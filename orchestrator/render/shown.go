// What run (and merge, for a run's shards) does with a run report once it
// has one: shows it, writes the page beside it, writes the CI outputs and
// says the verdict last.

package render

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// RunView is how a run's report is shown: JSON (--json) instead of the
// grid, HTML (--html) its page written beside the stored report, and
// ReasonSaid when the reason a toolchain is missing was just said on the
// same terminal (the grid then does not say it again).
type RunView struct {
	JSON, HTML, ReasonSaid bool
}

// Show puts r on out — the grid, or the JSON report — and, when r was
// stored at path, says so on log and, with HTML, writes its page beside
// it. A page that cannot be written is said on log; the run's outcome
// stands.
func (v RunView) Show(out, log io.Writer, r *report.Report, path string) {
	if v.JSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		enc.Encode(r)
	} else {
		report.GridFor(out, r, report.GridOptions{ReasonSaid: v.ReasonSaid})
	}
	if path == "" {
		return
	}
	fmt.Fprintf(log, "report: %s\n", path)
	if !v.HTML {
		return
	}
	if p, err := NextTo(path, r); err != nil {
		fmt.Fprintf(log, "html report: %v\n", err)
	} else {
		fmt.Fprintf(log, "html: %s\n", p)
	}
}

// Finish writes r's CI outputs and has p say r's verdict as the last line
// on stderr (under --quiet too). An output it could not write is an error
// of its own when the run was fine (runErr nil), and said on p beside the
// run's error when not.
func (o Outputs) Finish(r *report.Report, runErr error, p *termtext.Printer) error {
	p.SayLast("halebench: " + Of(r).Line())
	werr := o.Write(r)
	if werr == nil {
		return runErr
	}
	if runErr == nil {
		return werr
	}
	fmt.Fprintln(p, "halebench:", werr)
	return runErr
}
