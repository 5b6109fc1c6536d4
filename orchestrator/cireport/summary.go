package cireport

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"unicode"

	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/status"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Summary writes the run as a Markdown step summary: the verdict line
// first, then every bench and language result whose severity is not quiet
// (failures first), then the grid as report.Markdown writes it.
func Summary(w io.Writer, r *report.Report) {
	fmt.Fprintf(w, "### halebench %s\n\n", mdText(Of(r).Line()))
	if r.SubjectStatus != "" && r.SubjectStatus != string(status.Available) {
		fmt.Fprintf(w, "The subject %s was %s", mdText(r.Subject), mdText(r.SubjectStatus))
		if r.SubjectReason != "" {
			fmt.Fprintf(w, ": %s", mdText(firstLine(r.SubjectReason)))
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
	report.Markdown(w, markdownSafe(r))
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
			if f := figure(b); f != "" {
				text += ", " + mdText(f)
			}
			if why := firstLine(reason(b)); why != "" {
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
			if why = firstLine(why); why != "" {
				text += ": " + mdText(why)
			}
			out = append(out, item{res.Status.Severity().Rank(), text})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].rank < out[j].rank })
	return out
}

// mdText is text a bench or a toolchain may have written, made safe for
// one line of Markdown: cleaned by termtext (no escape, no CI command),
// then every character Markdown or HTML could read as markup escaped, so
// it shows as the text it is. An underscore inside a word (fn_modular)
// marks nothing and is left as it is.
func mdText(s string) string {
	rs := []rune(termtext.Line(s))
	var b strings.Builder
	for i, c := range rs {
		switch c {
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '&':
			b.WriteString("&amp;")
		case '_':
			if i > 0 && i+1 < len(rs) && wordRune(rs[i-1]) && wordRune(rs[i+1]) {
				b.WriteRune(c)
				continue
			}
			b.WriteString("\\_")
		case '\\', '`', '*', '[', ']', '#', '|', '!', '~', '$':
			b.WriteByte('\\')
			b.WriteRune(c)
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// markdownSafe is a copy of r whose text that report.Markdown prints as it
// is (bench names, category titles, the host, the subject's reason and
// version) went through mdText, so a hostile name can neither break a
// table nor bring in HTML. The copy shares what it does not change.
func markdownSafe(r *report.Report) *report.Report {
	c := *r
	c.Benches = make([]*report.Bench, len(r.Benches))
	for i, b := range r.Benches {
		nb := *b
		nb.Name = mdText(b.Name)
		c.Benches[i] = &nb
	}
	c.Categories = make([]report.Category, len(r.Categories))
	for i, cat := range r.Categories {
		nc := report.Category{Name: cat.Name, Title: mdText(cat.Title)}
		for _, n := range cat.Benches {
			nc.Benches = append(nc.Benches, mdText(n))
		}
		c.Categories[i] = nc
	}
	c.Host.CPUModel, c.Host.Arch, c.Host.Kernel = mdText(r.Host.CPUModel), mdText(r.Host.Arch), mdText(r.Host.Kernel)
	c.SubjectReason, c.SubjectStatus, c.Subject = mdText(r.SubjectReason), mdText(r.SubjectStatus), mdText(r.Subject)
	c.Images = map[string]report.Toolchain{}
	for l, tc := range r.Images {
		tc.Version = mdText(tc.Version)
		c.Images[mdText(l)] = tc
	}
	return &c
}
