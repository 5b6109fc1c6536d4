package report

import (
	"fmt"
	"html/template"
	"io"
	"math"
)

// forest is the plot's geometry: a log-scaled x axis of ratios.
type forest struct {
	W, H, Left, Right float64
	lo, hi            float64
}

func (f forest) x(r float64) float64 {
	return f.Left + (math.Log(r)-math.Log(f.lo))/(math.Log(f.hi)-math.Log(f.lo))*(f.W-f.Left-f.Right)
}

type row struct {
	ABBench
	Y, X, X1, X2 float64
	Bounded      bool
	Class        string
}

type page struct {
	*Result
	F              forest
	Rows           []row
	BandX1, BandX2 float64
	BandW          float64
	OneX           float64
	Ticks          []tick
}

type tick struct {
	X     float64
	Label string
}

// HTML writes a self-contained page: the grid and a forest plot of each
// bench's ratio B/A with its interval, the threshold's band shaded.
func HTML(w io.Writer, r *Result) error {
	band := 1 + r.Threshold
	lo, hi := 1/band/1.01, band*1.01
	for _, b := range r.Benches {
		if b.RatioHigh > 0 {
			lo, hi = math.Min(lo, b.RatioLow/1.01), math.Max(hi, b.RatioHigh*1.01)
		}
	}
	f := forest{W: 760, Left: 220, Right: 20, lo: lo, hi: hi}
	p := page{Result: r, F: f, BandX1: f.x(1 / band), BandX2: f.x(band), OneX: f.x(1)}
	p.BandW = p.BandX2 - p.BandX1
	for i, b := range r.Benches {
		rw := row{ABBench: b, Y: 30 + 22*float64(i), Class: string(b.Verdict)}
		if b.Ratio > 0 {
			rw.X = f.x(b.Ratio)
		}
		if b.RatioHigh > 0 {
			rw.Bounded, rw.X1, rw.X2 = true, f.x(b.RatioLow), f.x(b.RatioHigh)
		}
		p.Rows = append(p.Rows, rw)
	}
	p.F.H = 50 + 22*float64(len(r.Benches))
	for _, t := range []float64{0.5, 0.8, 0.9, 0.95, 1, 1.05, 1.1, 1.25, 1.5, 2} {
		if t >= lo && t <= hi {
			p.Ticks = append(p.Ticks, tick{X: f.x(t), Label: fmt.Sprintf("%g", t)})
		}
	}
	return pageTmpl.Execute(w, p)
}

var pageTmpl = template.Must(template.New("ab").Funcs(template.FuncMap{
	"ratio": ratioText, "dur": dur, "instr": instrText, "half": halfText, "pct": func(f float64) string { return fmt.Sprintf("%.2f", 100*f) },
}).Parse(`<!doctype html>
<html><head><meta charset="utf-8"><title>halebench ab: {{.A}} → {{.B}}</title>
<style>
body{font:14px system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse}td,th{padding:2px 8px;text-align:right}td:first-child,th:first-child{text-align:left}
.slower{color:#b00020;fill:#b00020;stroke:#b00020}.faster{color:#1b7f3a;fill:#1b7f3a;stroke:#1b7f3a}
.same{color:#555;fill:#555;stroke:#555}.unresolved{color:#b26a00;fill:#b26a00;stroke:#b26a00}.missing{color:#888;fill:#888;stroke:#888}
</style></head><body>
<h1>B/A: {{.B}} against {{.A}}</h1>
{{if .SameSides}}<p>A and B are given alike: an A/A, nothing should differ.</p>{{end}}
<p>Ratios B/A from paired, randomized interleaved rounds: Hodges–Lehmann estimate, Wilcoxon signed-rank interval at {{pct .LookLevel}} % per look.
The shaded band is ±{{pct .Threshold}} %. Seed {{.Seed}}; stopped by {{.StoppedBy}} after {{.Rounds}} rounds.{{with .HostLine}} Host: {{.}}.{{end}}</p>
<svg id="forest" width="{{.F.W}}" height="{{.F.H}}" role="img" aria-label="forest plot of the ratios B/A">
<rect class="band" x="{{.BandX1}}" y="15" width="{{.BandW}}" height="{{.F.H}}" fill="#e8eef8"/>
<line x1="{{.OneX}}" x2="{{.OneX}}" y1="15" y2="{{.F.H}}" stroke="#999"/>
{{range .Ticks}}<text x="{{.X}}" y="12" font-size="10" text-anchor="middle">{{.Label}}</text>{{end}}
{{range .Rows}}<g class="{{.Class}}" data-bench="{{.Name}}"><text x="4" y="{{.Y}}" dy="4" stroke="none">{{.Name}} ({{.Lang}})</text>
{{if .Bounded}}<line x1="{{.X1}}" x2="{{.X2}}" y1="{{.Y}}" y2="{{.Y}}" stroke-width="2"/>{{end}}{{if .X}}<circle cx="{{.X}}" cy="{{.Y}}" r="4"/>{{end}}</g>
{{end}}</svg>
<table><tr><th>bench</th><th>lang</th><th>A</th><th>B</th><th>B/A [interval]</th><th>±</th><th>rounds</th><th>instructions B/A</th><th>verdict</th></tr>
{{range .Benches}}<tr><td>{{.Name}}</td><td>{{.Lang}}</td><td>{{dur .MedianA}}</td><td>{{dur .MedianB}}</td><td>{{ratio .}}</td><td>{{half .}}</td><td>{{.Rounds}}</td><td>{{instr .}}</td><td class="{{.Verdict}}">{{.Verdict}}{{if .Detail}} — {{.Detail}}{{end}}</td></tr>
{{end}}</table></body></html>
`))
