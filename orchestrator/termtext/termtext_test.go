package termtext

import (
	"strings"
	"testing"
)

func TestClean(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "exit status 3\nline two\tok", "exit status 3\nline two\tok"},
		{"colour", "\x1b[31mred\x1b[0m text", "red text"},
		{"title and hyperlink (OSC)", "a\x1b]0;owned\x07b\x1b]8;;http://x\x1b\\c", "abc"},
		{"cursor and clear", "\x1b[2J\x1b[Hhi\x1b[?25l", "hi"},
		{"carriage return and bell", "fake\rreal\x07", "fake\ufffdreal\ufffd"},
		{"C1 CSI", "a\u009b31mb", "ab"},
		{"github command", "ok\n::add-mask::x\n  ::error file=a::b", "ok\n\u00b7 ::add-mask::x\n\u00b7 ::error file=a::b"},
		{"github command after no-break space", "\u00a0::set-output name=x::1", "\u00b7 ::set-output name=x::1"},
		{"github command after ideographic space and zero-width space", "\u3000\u200b::error::x", "\u00b7 ::error::x"},
		{"github command after a line separator", "ok\u2028::error::x", "ok\u2028\u00b7 ::error::x"},
		{"github command behind a colour", "\x1b[0m::error::x", "\u00b7 ::error::x"},
		{"azure command at the start", "##vso[task.setvariable variable=x]1", "##\u00b7vso[task.setvariable variable=x]1"},
		{"azure command mid-line", "result 42 ##vso[task.complete result=Succeeded]done", "result 42 ##\u00b7vso[task.complete result=Succeeded]done"},
		{"azure command after no-break space", "\u00a0##vso[task.setvariable variable=x]1", "\u00a0##\u00b7vso[task.setvariable variable=x]1"},
		{"azure command in capitals", "x ##VSO[task.prependpath]/evil", "x ##\u00b7VSO[task.prependpath]/evil"},
		{"logging prefix mid-line", "a ##[error]b ###[c]", "a ##\u00b7[error]b ###\u00b7[c]"},
		{"scope operators kept", "error in std::vector<int>::at", "error in std::vector<int>::at"},
		{"hashes kept", "## heading #[attr] ##x", "## heading #[attr] ##x"},
		{"invalid utf-8", "a\xffb", "a\ufffdb"},
		{"unicode kept", "µs — ok", "µs — ok"},
		{"bidi override (Trojan Source)", "ok \u202eexe.txt\u202c", "ok \ufffdexe.txt\ufffd"},
		{"bidi isolates and marks", "a\u2066b\u2069c\u200fd\u200ee\u061cf", "a\ufffdb\ufffdc\ufffdd\ufffde\ufffdf"},
		{"bidi override behind a command", "\u202e::error::x", "\ufffd::error::x"},
	}
	for _, c := range cases {
		got := Clean(c.in)
		if got != c.want {
			t.Errorf("%s: Clean(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
		if again := Clean(got); again != got {
			t.Errorf("%s: cleaning twice changes %q to %q", c.name, got, again)
		}
	}
}

// What a runner would obey: any line whose text after Unicode whitespace
// starts with "::", and "##[" or "##vso[" anywhere. Nothing Clean returns
// holds one, whatever came in.
func TestCleanLeavesNoCommand(t *testing.T) {
	pieces := []string{"::", "##", "[", "vso[", "VsO[", "#", ":", " ", "\u00a0", "\u2003", "\ufeff", "\n", "\u2028", "\r", "\t", "x", "\x1b[0m"}
	var gen func(prefix string, depth int)
	gen = func(prefix string, depth int) {
		if depth == 0 {
			if out := Clean(prefix); obeyed(out) {
				t.Fatalf("Clean(%q) = %q still carries a command", prefix, out)
			}
			if out := Line(prefix); obeyed(out) || strings.ContainsAny(out, "\n\t\u2028") {
				t.Fatalf("Line(%q) = %q", prefix, out)
			}
			return
		}
		for _, p := range pieces {
			gen(prefix+p, depth-1)
		}
	}
	gen("", 4)
}

func obeyed(s string) bool {
	for _, line := range strings.FieldsFunc(s, lineBreak) {
		if strings.HasPrefix(strings.TrimLeftFunc(line, blank), "::") {
			return true
		}
		l := strings.ToLower(line)
		if strings.Contains(l, "##[") || strings.Contains(l, "##vso[") {
			return true
		}
	}
	return false
}

func TestLine(t *testing.T) {
	if got := Line("fn\tcall\nnext\u2029::x"); got != "fn call next \u00b7 ::x" {
		t.Fatalf("Line = %q", got)
	}
}
