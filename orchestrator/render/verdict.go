package render

import (
	"fmt"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/judge"
	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Verdict is a run in one word and its benches counted by status.
type Verdict struct {
	// Status is the run's: ok, regression, failed, inconclusive or
	// interrupted, as the report says.
	Status outcome.Status
	// Groups are the subject benches by status, what needs a reader first.
	Groups []Group
}

// Group is the subject benches that ended with one status.
type Group struct {
	Status   outcome.Status
	Severity outcome.Severity
	Benches  []*report.Bench
}

// named is how many benches of a group the verdict line names.
const named = 3

// Of counts a report's subject benches by status. The run's word is the
// report's own; a report that holds none (one from before runs had a
// status) gets the worst bench severity's word.
func Of(r *report.Report) Verdict {
	var tally judge.Tally
	byStatus := map[outcome.Status][]*report.Bench{}
	worst := outcome.Fine
	for _, b := range r.Benches {
		sev := benchSeverity(b)
		worst = max(worst, sev)
		tally.Add(b.Status, sev)
		byStatus[b.Status] = append(byStatus[b.Status], b)
	}
	v := Verdict{Status: r.Status}
	if v.Status == "" {
		v.Status = wordFor(worst)
	}
	for _, c := range tally.Counts() {
		v.Groups = append(v.Groups, Group{Status: c.Status, Severity: c.Severity, Benches: byStatus[c.Status]})
	}
	return v
}

// benchSeverity is what a subject bench's status means, given whether the
// baseline held it (a gone subject program fails only then).
func benchSeverity(b *report.Bench) outcome.Severity {
	return outcome.OfBench(b.Status, b.BaselineElapsedNs != nil)
}

func wordFor(v outcome.Severity) outcome.Status {
	switch v {
	case outcome.Fails:
		return outcome.Failed
	case outcome.Regresses:
		return outcome.Regression
	case outcome.Attention:
		return outcome.Inconclusive
	}
	return outcome.OK
}

// Line is the verdict in one line, e.g. "verdict regression — 1
// regression (fn_modular +31.0% time), 21 ok": each status's count, and for
// those a reader must look at, the first benches by name with their figure.
func (v Verdict) Line() string {
	var parts []string
	for _, g := range v.Groups {
		p := fmt.Sprintf("%d %s", len(g.Benches), word(g.Status))
		if g.Severity >= outcome.Attention {
			p += " (" + namesOf(g.Benches) + ")"
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		parts = append(parts, "no benches")
	}
	return fmt.Sprintf("verdict %s — %s", word(v.Status), strings.Join(parts, ", "))
}

// word is a status as one line may show it.
func word(s outcome.Status) string {
	if s == "" {
		return "unjudged"
	}
	return termtext.Line(string(s))
}

// namesOf names up to `named` benches with their figure, and how many
// more there are.
func namesOf(benches []*report.Bench) string {
	var names []string
	for i, b := range benches {
		if i == named {
			names = append(names, fmt.Sprintf("%d more", len(benches)-named))
			break
		}
		n := termtext.Line(b.Name)
		if f := ciFigure(b); f != "" {
			n += " " + f
		}
		names = append(names, n)
	}
	return strings.Join(names, ", ")
}

// figure is a bench's move against its baseline in a few characters:
// "+31.0% time", "+12.5% memory", "+2.00% instructions" (a count
// regression), each that applies; "" when the
// bench has no such figure.
func ciFigure(b *report.Bench) string {
	var out []string
	for _, m := range judge.All() {
		if c := b.CheckOf(m); c != nil && c.Baseline > 0 && (m.Headline || c.Status == m.Regressed) {
			out = append(out, fmt.Sprintf("%+.1f%% %s", (c.Ratio-1)*100, m.Name))
		}
	}
	if s := b.SubjectResult; s != nil && s.Count != nil && s.Count.Delta != nil && s.Count.Baseline > 0 && s.Count.Verdict == outcome.Regression {
		out = append(out, fmt.Sprintf("%+.2f%% %s", 100*float64(*s.Count.Delta)/float64(s.Count.Baseline), judge.Instructions.Name))
	}
	return strings.Join(out, ", ")
}
