// The one generator of every page halebench writes — a run's, an ab's, an
// xproc's: one layout (the head, the Content-Security-Policy, the style
// sheet, the footer) that each kind fills with its own body.

package render

import (
	_ "embed"
	"fmt"
	"html/template"

	"github.com/hale-lang/halebench/orchestrator/outcome"
	"github.com/hale-lang/halebench/orchestrator/report"
	"github.com/hale-lang/halebench/orchestrator/termtext"
)

// CSP is every page's Content-Security-Policy: nothing may be fetched or
// run (no script, no image, no font, no frame, no form target, no
// connection); only the page's own inline style applies.
const CSP = "default-src 'none'; style-src 'unsafe-inline'"

//go:embed layout.html.tmpl
var layoutTemplate string

//go:embed page.html.tmpl
var runTemplate string

//go:embed ab.html.tmpl
var abTemplate string

//go:embed xproc.html.tmpl
var xprocTemplate string

// funcs are what every page's template may call.
var funcs = template.FuncMap{
	"csp":   func() string { return CSP },
	"ns":    report.FormatNs,
	"kb":    FormatKB,
	"ratio": report.FormatRatio,
	"short": shortDigest,
	"first": termtext.FirstLine,
	"class": func(s any) string { return statusClass(outcome.Status(fmt.Sprint(s))) },
	"pct":   func(f float64) string { return fmt.Sprintf("%.1f%%", f*100) },
	"deref": func(p *float64) float64 { return *p },
	"pfmt":  func(p float64) string { return fmt.Sprintf("%.3g", p) },
	"pct2":  func(f float64) string { return fmt.Sprintf("%.2f", 100*f) },
	"dur":   report.Dur,
}

// layout is the one shell; each kind's page is a clone with its body.
var layout = template.Must(template.New("layout").Funcs(funcs).Parse(layoutTemplate))

func pageOf(body string) *template.Template {
	return template.Must(template.Must(layout.Clone()).Parse(body))
}

var (
	page      = pageOf(runTemplate)
	abPage    = pageOf(abTemplate)
	xprocPage = pageOf(xprocTemplate)
)
