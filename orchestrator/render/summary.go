package render

import (
	"fmt"
	"io"
	"sort"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Summary writes the run as a Markdown step summary: the verdict line
// first, then every bench and language result whose severity is not quiet
// (failures first), then the grid as report.Markdown writes it.
func Summary(w io.Writer, r *report.Report) {
	fmt.Fprintf(w, "### halebench %s\n\n", mdText(Of(r).Line()))
	if r.SubjectStatus != "" && r.SubjectStatus != string(outcome.Available) {
		fmt.Fprintf(w, "The subject %s was %s", mdText(r.Subject), mdText(r.SubjectStatus))
		if r.SubjectReason != "" {
			fmt.Fprintf(w, ": %s", mdText(termtext.Headline(r.SubjectReason, 300)))
		}
		fmt.Fprint(w, ".\n\n")
	}
	items := attention(r)
	if len(items) == 0 {
		fmt.Fprint(w, "Nothing needs attention.\n")
	} else {
		fmt.Fprint(w, "**Needs attention**\n\n")
		for _, it := range items {
			fmt.Fprintf(w, "- %s\n", it.text)
		}
	}
	fmt.Fprint(w, "\n<details><summary>The grid</summary>\n\n")
	report.Markdown(w, r)
	fmt.Fprint(w, "\n</details>\n\n")
}

// item is one line of the needs-attention list, and where it sorts.
type item struct {
	rank int
	text string
}

// attention is every subject bench whose status is not quiet, and every
// language's result on a bench that is not quiet (the subject's only where
// it says more than the bench's status), what needs a reader first.
func attention(r *report.Report) []item {
	var out []item
	for _, b := range r.Benches {
		name := mdText(b.Name)
		if sev := benchSeverity(b); !sev.Quiet() {
			text := fmt.Sprintf("**%s** — %s (gate)", name, mdText(word(b.Status)))
			if f := ciFigure(b); f != "" {
				text += ", " + mdText(f)
			}
			if why := termtext.Headline(reason(b), 300); why != "" {
				text += ": " + mdText(why)
			}
			out = append(out, item{sev.Rank(), text})
		}
		for _, l := range report.Langs(r) {
			res := report.LangResult(r, b, l.Name)
			if res == nil || res.Status.Severity().Quiet() || (l.Name == r.Subject && res.Status == b.Status) {
				continue
			}
			text := fmt.Sprintf("**%s** — %s: %s", name, mdText(l.Name), mdText(word(res.Status)))
			why := res.Detail
			if why == "" {
				why = res.BuildError
			}
			if why = termtext.Headline(why, 300); why != "" {
				text += ": " + mdText(why)
			}
			out = append(out, item{res.Status.Severity().Rank(), text})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].rank < out[j].rank })
	return out
}

// mdText is text a bench or a toolchain may have written, made safe for
// one line of Markdown (termtext.Cell).
func mdText(s string) string { return termtext.Cell(s) }
