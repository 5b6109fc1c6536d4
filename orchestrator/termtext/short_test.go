package termtext

import "testing"

func TestShortFirstLineClip(t *testing.T) {
	for in, want := range map[string]string{
		"sha256:0123456789abcdef": "0123456789ab", "0123456789abcdef": "0123456789ab", "abc": "abc", "sha256:": "",
	} {
		if got := ShortID(in); got != want {
			t.Errorf("ShortID(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"one\ntwo": "one", "one": "one", "\nx": "", "": ""} {
		if got := FirstLine(in); got != want {
			t.Errorf("FirstLine(%q) = %q, want %q", in, got, want)
		}
	}
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{{"abcdef", 6, "abcdef"}, {"abcdef", 3, "abc…"}, {"aé", 2, "a…"}, {"", 0, ""}} {
		if got := Clip(c.in, c.n); got != c.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

func TestHeadline(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
	}{{"  why \nmore", 0, "why "}, {"\n\nwhy\n", 0, "why"}, {"abcdef\nx", 3, "abc…"}, {"", 3, ""}} {
		if got := Headline(c.in, c.n); got != c.want {
			t.Errorf("Headline(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}
