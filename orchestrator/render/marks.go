// Each language's mark: a shape as well as a colour, so that no chart
// tells languages apart by colour alone (a reader who does not see the
// colours, a page printed in grey).

package render

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/hale-lang/halebench/orchestrator/suite"
)

// shape is one marker's outline, drawn centred on a point.
type shape int

const (
	circle shape = iota
	square
	diamond
	triangleUp
	triangleDown
	plus
	shapes // how many there are
)

var shapeNames = [shapes]string{"circle", "square", "diamond", "triangle", "inverted triangle", "plus"}

func (s shape) String() string { return shapeNames[s] }

// shapeOf is a language's shape: by its place in the language table, so
// that a language keeps its shape on every page; a language the table does
// not know is a circle.
func shapeOf(lang string) shape {
	for i, l := range suite.All {
		if l.Name == lang || l.Ext == lang {
			return shape(i % int(shapes))
		}
	}
	return circle
}

// marker is the SVG element of shape s of radius r at (x, y), filled with
// fill (a colour this package chose, never text of a report), with the
// attributes extra adds (a class, a title child is added by the caller).
func marker(s shape, x, y, r float64, fill, class string) string {
	attrs := fmt.Sprintf(`fill="%s"`, fill)
	if class != "" {
		attrs = fmt.Sprintf(`class="%s" %s`, class, attrs)
	}
	switch s {
	case square:
		a := r * 0.9
		return fmt.Sprintf(`<rect %s x="%s" y="%s" width="%s" height="%s"`, attrs, f1(x-a), f1(y-a), f1(2*a), f1(2*a))
	case diamond:
		a := r * 1.25
		return fmt.Sprintf(`<path %s d="%s"`, attrs, poly(x, y, [][2]float64{{0, -a}, {a, 0}, {0, a}, {-a, 0}}))
	case triangleUp:
		a := r * 1.3
		return fmt.Sprintf(`<path %s d="%s"`, attrs, poly(x, y, [][2]float64{{0, -a}, {a * 0.9, a * 0.65}, {-a * 0.9, a * 0.65}}))
	case triangleDown:
		a := r * 1.3
		return fmt.Sprintf(`<path %s d="%s"`, attrs, poly(x, y, [][2]float64{{0, a}, {a * 0.9, -a * 0.65}, {-a * 0.9, -a * 0.65}}))
	case plus:
		a, w := r*1.25, r*0.45
		return fmt.Sprintf(`<path %s d="%s"`, attrs, poly(x, y, [][2]float64{{-w, -a}, {w, -a}, {w, -w}, {a, -w}, {a, w}, {w, w}, {w, a}, {-w, a}, {-w, w}, {-a, w}, {-a, -w}, {-w, -w}}))
	}
	return fmt.Sprintf(`<circle %s cx="%s" cy="%s" r="%s"`, attrs, f1(x), f1(y), f1(r))
}

// poly is a closed path through the points, offset by (x, y).
func poly(x, y float64, pts [][2]float64) string {
	var b strings.Builder
	for i, p := range pts {
		if i == 0 {
			b.WriteString("M")
		} else {
			b.WriteString(" L")
		}
		b.WriteString(f1(x+p[0]) + " " + f1(y+p[1]))
	}
	b.WriteString(" Z")
	return b.String()
}

// mark writes a language's marker with a tooltip; the tooltip repeats what
// the page's tables say, it is never the only place a figure is.
func mark(lang string, x, y, r float64, class, tip string) string {
	m := marker(shapeOf(lang), x, y, r, colour(lang), class)
	if tip == "" {
		return m + "/>"
	}
	return m + "><title>" + esc(tip) + "</title></" + tagOf(m) + ">"
}

func tagOf(el string) string {
	name, _, _ := strings.Cut(strings.TrimPrefix(el, "<"), " ")
	return name
}

// keyMark is a language's marker alone, as the legend shows it before the
// language's name.
func keyMark(lang string) template.HTML {
	return template.HTML(fmt.Sprintf(`<svg viewBox="0 0 12 12" aria-hidden="true">%s/></svg>`, marker(shapeOf(lang), 6, 6, 4.2, colour(lang), "")))
}
