package termtext

import "testing"

func TestClean(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"plain", "exit status 3\nline two\tok", "exit status 3\nline two\tok"},
		{"colour", "\x1b[31mred\x1b[0m text", "red text"},
		{"title and hyperlink (OSC)", "a\x1b]0;owned\x07b\x1b]8;;http://x\x1b\\c", "abc"},
		{"cursor and clear", "\x1b[2J\x1b[Hhi\x1b[?25l", "hi"},
		{"carriage return and bell", "fake\rreal\x07", "fake\ufffdreal\ufffd"},
		{"C1 CSI", "a\u009b31mb", "ab"},
		{"github command", "ok\n::add-mask::x\n  ::error file=a::b", "ok\n\u00b7 ::add-mask::x\n\u00b7 ::error file=a::b"},
		{"azure command", "##vso[task.setvariable variable=x]1", "\u00b7 ##vso[task.setvariable variable=x]1"},
		{"invalid utf-8", "a\xffb", "a\ufffdb"},
		{"unicode kept", "µs — ok", "µs — ok"},
	}
	for _, c := range cases {
		if got := Clean(c.in); got != c.want {
			t.Errorf("%s: Clean(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}
