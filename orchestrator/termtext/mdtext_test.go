package termtext

import (
	"strings"
	"testing"
)

func TestCell(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "fn_modular 1.5 ms", "fn_modular 1.5 ms"},
		{"image", "![x](https://evil.example/p.png)", `\!\[x\](https\://evil.example/p.png)`},
		{"link", "[click](http://x)", `\[click\](http\://x)`},
		{"angle autolink", "<https://evil.example>", "&lt;https\\://evil.example&gt;"},
		{"bare url", "see https://evil.example/a", `see https\://evil.example/a`},
		{"www autolink", "go to WWW.evil.example", `go to WWW\.evil.example`},
		{"email autolink", "mail me@evil.example or mailto:x", `mail me\@evil.example or mailto\:x`},
		{"raw html", `<img src=x onerror=alert(1)>`, `&lt;img src=x onerror=alert(1)&gt;`},
		{"details close", "</details><script>", "&lt;/details&gt;&lt;script&gt;"},
		{"entity", "&lt;b&gt;", "&amp;lt;b&amp;gt;"},
		{"table breaker", "a | b\nc", `a \| b c`},
		{"emphasis and code", "*b* _i_ `c` ~~s~~", "\\*b\\* \\_i\\_ \\`c\\` \\~\\~s\\~\\~"},
		{"heading marker", "# h", `\# h`},
		{"backslash", `a\|b`, `a\\\|b`},
		{"ci command kept out", "  ::error::x", "\u00b7 ::error::x"},
		{"escape sequence", "\x1b[31mred", "red"},
	}
	for _, c := range cases {
		if got := Cell(c.in); got != c.want {
			t.Errorf("%s: Cell(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}

// hostile are strings a bench, a build log or a commit subject could carry
// into release notes.
var hostile = []string{
	"![pwn](https://evil.example/x.png)",
	"[docs](javascript:alert(1))",
	"<img src=https://evil.example/t.gif>",
	"<a href='http://evil.example'>x</a>",
	"<https://evil.example>",
	"http://evil.example ftp://x www.evil.example a@b.example",
	"| injected | cell |\n|---|---|\n| row | two |",
	"line\r\n::error::x\u2028##vso[task.complete]",
	"<!-- hidden --> <details open>",
	"&#60;script&#62; &lt;",
	"[ref]: https://evil.example",
	"a\\![x](y)",
}

// TestCellLeavesNoMarkup checks what a Markdown renderer could read as
// markup in Cell's output: outside a backslash escape or one of the three
// entities Cell writes, no character that opens a tag, a link, an image,
// code or a cell, no line break, and no text a renderer autolinks.
func TestCellLeavesNoMarkup(t *testing.T) {
	for _, s := range hostile {
		out := Cell(s)
		plain := unescaped(t, out)
		if i := strings.IndexAny(plain, "<>[]!|`\n\r\u2028"); i >= 0 {
			t.Errorf("Cell(%q) = %q: %q left unescaped", s, out, plain[i:])
		}
		low := strings.ToLower(plain)
		for _, auto := range []string{"://", "www.", "@", "mailto:"} {
			if strings.Contains(low, auto) {
				t.Errorf("Cell(%q) = %q: %q left to autolink", s, out, auto)
			}
		}
	}
}

// unescaped is out with every backslash escape and entity removed: what is
// left is what a renderer reads as it is.
func unescaped(t *testing.T, out string) string {
	var b strings.Builder
	for i := 0; i < len(out); i++ {
		switch {
		case out[i] == '\\' && i+1 < len(out) && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", out[i+1]) >= 0:
			i++
			b.WriteByte(' ')
		case out[i] == '&':
			n := 0
			for _, e := range []string{"&lt;", "&gt;", "&amp;"} {
				if strings.HasPrefix(out[i:], e) {
					n = len(e)
				}
			}
			if n == 0 {
				t.Errorf("%q: a bare & at %d", out, i)
				continue
			}
			i += n - 1
			b.WriteByte(' ')
		default:
			b.WriteByte(out[i])
		}
	}
	return b.String()
}
