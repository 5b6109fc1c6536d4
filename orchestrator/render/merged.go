// What merge writes of the one document its shards make: each kind in the
// forms it has.

package render

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/result"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Merged are merge's outputs: JSON (--json) the merged document on stdout
// instead of its text, Out (-o) that JSON in a file, HTML (--html) its page
// (a run's or an ab's), JUnit (--junit, a run's), and the step summaries,
// Summary (--summary) and StepSummary ($GITHUB_STEP_SUMMARY): a run's
// summary, an ab's Markdown table.
type Merged struct {
	JSON                      bool
	Out, HTML, JUnit, Summary string
	StepSummary               string
	// FailUnmeasured (set in CI, as run's) ends the merge of a run whose
	// subject was not measured in judge.ErrUnmeasured, its outputs written.
	FailUnmeasured bool
}

// ci are a merged run's CI outputs.
func (o Merged) ci() Outputs { return Targets(o.JUnit, o.Summary, o.StepSummary) }

// Check refuses the outputs kind k has no form for, before any is written.
func (o Merged) Check(k result.Kind) error {
	switch {
	case k == result.Run:
		return o.ci().Check()
	case k == result.AB && o.JUnit != "":
		return errors.New("merge: --junit writes a run's benches; ab shards have no JUnit form (use --summary for the Markdown table)")
	case k == result.Xproc:
		for _, f := range []struct{ flag, v string }{{"--junit", o.JUnit}, {"--html", o.HTML}, {"--summary", o.Summary}} {
			if f.v != "" {
				return fmt.Errorf("merge: %s writes a run's or an ab's outputs; an xproc report has its two tables and its JSON (-o)", f.flag)
			}
		}
	}
	return nil
}

// Give is merge's work once the shards are one document m (Check passed):
// each shard said on p, the files asked for written, m shown on out, then
// by its kind: a run's CI outputs and its verdict last, with the error its
// gate gives (judge.GateError); an ab's table appended to the summaries.
func (o Merged) Give(out io.Writer, p *termtext.Printer, m *result.Doc) error {
	result.Parts(p, m)
	if err := o.write(out, p, m); err != nil {
		return err
	}
	switch m.Kind {
	case result.Run:
		err := judge.GateError(m.Run.Status, m.Run.Gate.Strict)
		if o.FailUnmeasured && m.Run.SubjectStatus != string(outcome.Available) {
			err = fmt.Errorf("the shards did not measure their subject %s (%s); in CI (CI=true) a run that could not measure its subject fails, with nothing gated: %w",
				termtext.Line(m.Run.Subject), termtext.Line(m.Run.SubjectStatus), judge.ErrUnmeasured)
		}
		return o.ci().Finish(m.Run, err, p)
	case result.AB:
		return o.abSummary(m.AB)
	}
	return nil
}

// write writes the merged document's files that were asked for — its JSON
// (-o), its HTML page — saying them on log, then shows it on out: its
// JSON, or its text.
func (o Merged) write(out, log io.Writer, m *result.Doc) error {
	if err := o.files(log, m); err != nil {
		return err
	}
	if !o.JSON {
		result.Text(out, m)
		return nil
	}
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(m.Value())
}

// files writes -o's JSON and the HTML page (a run's or an ab's).
func (o Merged) files(log io.Writer, m *result.Doc) error {
	if o.Out != "" {
		if err := report.WriteFile(o.Out, m.Value()); err != nil {
			return fmt.Errorf("merge: %w", err)
		}
		word := "report"
		if m.Kind == result.AB {
			word = "result"
		}
		fmt.Fprintf(log, "%s: %s\n", word, o.Out)
	}
	if o.HTML == "" {
		return nil
	}
	var err error
	switch m.Kind {
	case result.Run:
		name := o.Out
		if name == "" {
			name = "merged report"
		}
		err = WriteFile(o.HTML, []*Run{RunOf(name, m.Run)})
	case result.AB:
		err = report.AtomicWrite(o.HTML, 0o644, func(w io.Writer) error { return ABPage(w, m.AB) })
	}
	if err != nil {
		return fmt.Errorf("merge: --html=%s: %w", o.HTML, err)
	}
	if m.Kind == result.Run {
		fmt.Fprintf(log, "html: %s\n", o.HTML)
	}
	return nil
}

// abSummary appends an ab's Markdown table to --summary and to
// $GITHUB_STEP_SUMMARY, each that is set.
func (o Merged) abSummary(r *report.Result) error {
	for _, path := range []string{o.Summary, o.StepSummary} {
		if path == "" {
			continue
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
		if err != nil {
			return fmt.Errorf("merge: summary %s: %w", path, err)
		}
		report.ABMarkdown(f, r)
		if err := f.Close(); err != nil {
			return fmt.Errorf("merge: summary %s: %w", path, err)
		}
	}
	return nil
}
