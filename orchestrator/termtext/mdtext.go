package termtext

import (
	"strings"
	"unicode"
)

// Cell is s as one line of Markdown text, fit for a table cell or a list
// item: termtext.Line first (one line, no escape sequence, no CI command),
// then every character Markdown or HTML could read as markup is escaped —
// `<`, `>` and `&` as entities (no raw HTML, no `<url>` autolink, no
// entity), the brackets and bang of links and images, and the marks of
// emphasis, code, math, headings and table pipes with a backslash
// (parentheses mean nothing without a bracket before them). A bare URL or address that GitHub would
// turn into a link ("https://", "www.", "x@y") gets a backslash in its
// ":", "." or "@", so it stays text. An underscore inside a word
// (fn_modular) marks nothing and is left as it is.
func Cell(s string) string {
	rs := []rune(Line(s))
	var b strings.Builder
	b.Grow(len(s) + 8)
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
			b.WriteString(`\_`)
		case ':':
			if autolinkColon(rs, i) {
				b.WriteByte('\\')
			}
			b.WriteRune(c)
		case '.':
			if autolinkDot(rs, i) {
				b.WriteByte('\\')
			}
			b.WriteRune(c)
		case '\\', '`', '*', '[', ']', '#', '|', '!', '~', '$', '@':
			b.WriteByte('\\')
			b.WriteRune(c)
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}

func wordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// autolinkColon says whether the ':' at i starts "://" (a URL autolink's
// scheme ends there) or ends a "mailto:" or "xmpp:" scheme.
func autolinkColon(rs []rune, i int) bool {
	if i+2 < len(rs) && rs[i+1] == '/' && rs[i+2] == '/' {
		return true
	}
	for _, scheme := range []string{"mailto", "xmpp"} {
		if n := len(scheme); i >= n && strings.EqualFold(string(rs[i-n:i]), scheme) {
			return true
		}
	}
	return false
}

// autolinkDot says whether the '.' at i ends "www" (GitHub links
// "www.example.com" without a scheme).
func autolinkDot(rs []rune, i int) bool {
	return i >= 3 && strings.EqualFold(string(rs[i-3:i]), "www")
}
