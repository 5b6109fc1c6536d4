package report

import (
	"fmt"
	"io"
	"regexp"
	"strings"
	"time"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/suite"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// Markdown writes the snapshot the seed README keeps under "Cross-language
// comparative grid": the "Latest snapshot" line (subject and version, date,
// CPU / arch / kernel), how to read a cell, then one table per category with
// `<elapsed> (<ratio>×)` cells. It replaces the seed's manual copying of
// numbers at a release, so it formats exactly as the seed did: the most
// readable unit, three significant figures, `—` where a sibling is missing.
// What the seed never needed (a failed cell, a parity mismatch) is written
// as the status or a mark, with the mark's meaning under the tables. Every
// text a report holds goes through termtext.Cell: a report is a file anyone
// may hand to `show --markdown`, and its snapshot goes into release notes,
// so no name, status or reason may bring an image, a link or HTML along.
func Markdown(w io.Writer, r *Report) {
	langs := gridLangs(r)
	mdIntro(w, r)
	marks := map[string]bool{}
	for _, t := range tables(r) {
		fmt.Fprintf(w, "\n### %s\n\n", termtext.Cell(t.title))
		head := []string{"Bench"}
		rule := []string{"---"}
		for _, l := range langs {
			head = append(head, termtext.Cell(l.Title))
			rule = append(rule, "---")
			for _, m := range r.Columns(l.Name) {
				head, rule = append(head, termtext.Cell(l.Title+" "+m.Column)), append(rule, "---")
			}
		}
		fmt.Fprintf(w, "| %s |\n|%s|\n", strings.Join(head, " | "), strings.Join(rule, "|"))
		for _, b := range t.rows {
			cells := []string{termtext.Cell(b.Name)}
			for _, l := range langs {
				cells = append(cells, mdCell(r, b, l.Name, marks))
				for _, m := range r.Columns(l.Name) {
					cells = append(cells, termtext.Cell(strings.ReplaceAll(MetricCell(r, b, l.Name, m), "|", "/")))
				}
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
		}
	}
	legend := []struct{ key, text string }{
		{"!", "- `!` parity mismatch: this sibling's check line differs from its peers' (it did other work; not comparable)."},
		{"*", "- `*` not comparable by construction (see the bench's note)."},
		{"~", "- `~` CPUs shared with the orchestrator (the host had no CPU to spare)."},
		{"±", "- `±` noisy: the samples' coefficient of variation is over 10%."},
	}
	first := true
	for _, m := range legend {
		if marks[m.key] {
			if first {
				fmt.Fprintln(w)
				first = false
			}
			fmt.Fprintf(w, "%s\n", m.text)
		}
	}
}

// mdIntro is the snapshot's "Latest snapshot" line, what became of the
// subject when it was not available, and how to read a cell.
func mdIntro(w io.Writer, r *Report) {
	subj := termtext.Cell(subjectTitle(r))
	fmt.Fprintf(w, "Latest snapshot: %s (%s), %s / %s / %s.\n\n", termtext.Cell(SubjectVersion(r)),
		termtext.Cell(reportDate(r.GeneratedAt)), termtext.Cell(orUnknown(r.Host.CPUModel)), termtext.Cell(orDash(r.Host.Arch)), termtext.Cell(kernelLine(r.Host.Kernel)))
	if r.SubjectStatus != "" && r.SubjectStatus != "available" {
		fmt.Fprintf(w, "%s was %s in this run", subj, termtext.Cell(r.SubjectStatus))
		if r.SubjectReason != "" {
			fmt.Fprintf(w, " (%s)", termtext.Cell(strings.TrimSuffix(r.SubjectReason, ".")))
		}
		fmt.Fprintf(w, ": no ratios.\n\n")
	}
	// Inside a code span a backslash escapes nothing: no backtick may end it.
	low := strings.ToLower(strings.ReplaceAll(subj, "`", "'"))
	fmt.Fprintf(w, "Read each cell as `<elapsed> (<ratio_vs_%s>×)` where ratio = sibling_time / %s_time:\n\n", low, low)
	fmt.Fprintf(w, "- ratio > 1 → sibling is slower than %s by that factor.\n", subj)
	fmt.Fprintf(w, "- ratio < 1 → sibling is faster than %s by 1/ratio.\n", subj)
	fmt.Fprintf(w, "- — → no sibling exists for this bench (%s-only).\n", subj)
}

// mdCell is one table cell: the median and the ratio when the language has
// a number, its status otherwise (unknown statuses are shown as they are),
// and a status other than ok after the number.
func mdCell(r *Report, b *Bench, lang string, marks map[string]bool) string {
	res := LangResult(r, b, lang)
	if res == nil {
		return "—"
	}
	if res.ElapsedNsMedian <= 0 {
		return termtext.Cell(string(res.Status))
	}
	s := FormatNs(res.ElapsedNsMedian)
	if lang != r.Subject && res.RatioVsSubject != nil {
		s += " (" + FormatRatio(*res.RatioVsSubject) + "×)"
	}
	switch res.Status {
	case outcome.OK, "":
	case outcome.StatusParityMismatch:
		s += " !"
		marks["!"] = true
	default:
		s += " " + termtext.Cell(string(res.Status))
	}
	// The bench's status is repeated where it says something about the
	// number shown (attention or worse), not where it only says how it was
	// gated.
	if lang == r.Subject && b.Status.Severity() > outcome.Unjudged && b.Status != res.Status {
		s += " " + termtext.Cell(string(b.Status))
	}
	if !res.Comparable {
		s += " *"
		marks["*"] = true
	}
	if res.CPUsShared {
		s += " ~"
		marks["~"] = true
	}
	if res.ElapsedNs.CV > NoisyCV {
		s += " ±"
		marks["±"] = true
	}
	return s
}

// LangResult is a language's result on a bench: the subject's or a
// comparative's; nil when the language has none.
func LangResult(r *Report, b *Bench, lang string) *Lang {
	if lang == r.Subject {
		return b.SubjectResult
	}
	return b.Comparatives[lang]
}

// Langs are the report's languages in grid order, the subject first.
func Langs(r *Report) []suite.Language { return gridLangs(r) }

func subjectTitle(r *Report) string {
	if l, ok := suite.ByName(r.Subject); ok {
		return l.Title
	}
	return clean(r.Subject)
}

var versionNumber = regexp.MustCompile(`\d+\.\d+(\.\d+)?`)

// SubjectVersion names the subject as the seed's snapshot line does
// ("Hale v0.9.0"): the first version number in its toolchain's version
// line, or the subject's status when it had no toolchain.
func SubjectVersion(r *Report) string {
	title := subjectTitle(r)
	tc, ok := r.Images[r.Subject]
	if !ok || tc.Version == "" {
		if r.SubjectStatus != "" && r.SubjectStatus != "available" {
			return title + " " + clean(r.SubjectStatus)
		}
		return title + " (version unknown)"
	}
	if v := versionNumber.FindString(tc.Version); v != "" {
		return title + " v" + v
	}
	return title + " " + clean(tc.Version)
}

func reportDate(generatedAt string) string {
	t, err := time.Parse(time.RFC3339Nano, generatedAt)
	if err != nil {
		return orDash(generatedAt)
	}
	return t.UTC().Format("2006-01-02")
}

// kernelLine is "Linux 6.18" from "6.18.3-cloud-amd64", as the seed
// names a kernel.
func kernelLine(k string) string {
	if k == "" {
		return "unknown kernel"
	}
	parts := strings.SplitN(k, ".", 3)
	if len(parts) >= 2 {
		minor := parts[1]
		if i := strings.IndexFunc(minor, func(c rune) bool { return c < '0' || c > '9' }); i >= 0 {
			minor = minor[:i]
		}
		return "Linux " + parts[0] + "." + minor
	}
	return "Linux " + k
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
