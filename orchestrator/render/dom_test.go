package render

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// The page as Chromium rendered it, read as a tree: what a reader (or a
// screen reader) is given, not what the generator meant to write.

func parseDOM(t *testing.T, dom string) *html.Node {
	t.Helper()
	n, err := html.Parse(strings.NewReader(dom))
	if err != nil {
		t.Fatalf("the DOM Chromium dumped does not parse: %v", err)
	}
	return n
}

// all is every element under n named tag whose attributes hold each of
// attrs ("key=value"; "key" alone: present).
func all(n *html.Node, tag string, attrs ...string) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == tag && hasAttrs(n, attrs) {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func hasAttrs(n *html.Node, attrs []string) bool {
	for _, want := range attrs {
		k, v, withValue := strings.Cut(want, "=")
		got, ok := attr(n, k)
		if !ok || (withValue && got != v) {
			return false
		}
	}
	return true
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// text is the text under n, its runs of white space made one space.
func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
			b.WriteString(" ")
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

// cells are a table row's cells (th and td), each as its text.
func cells(tr *html.Node) []string {
	var out []string
	for c := tr.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && (c.Data == "th" || c.Data == "td") {
			out = append(out, text(c))
		}
	}
	return out
}

// rowOf is the first row of table whose first cell is first and whose
// cells hold each of with.
func rowOf(table *html.Node, first string, with ...string) []string {
	for _, tr := range all(table, "tr") {
		cs := cells(tr)
		if len(cs) == 0 || cs[0] != first {
			continue
		}
		ok := true
		for _, w := range with {
			ok = ok && strings.Contains(strings.Join(cs, " | "), w)
		}
		if ok {
			return cs
		}
	}
	return nil
}

// cspOf is the page's Content-Security-Policy, as its meta element says it.
func cspOf(doc *html.Node) string {
	for _, m := range all(doc, "meta", "http-equiv=Content-Security-Policy") {
		v, _ := attr(m, "content")
		return v
	}
	return ""
}

// textOutside is the text under n that is not inside an element named
// skip.
func textOutside(n *html.Node, skip string) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == skip {
			return
		}
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
			b.WriteString(" ")
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}
