package termtext

import (
	"strings"
	"unicode/utf8"
)

// Clean keeps printable text, newlines and tabs. ANSI escape sequences (CSI,
// OSC and the rest) are dropped whole, other control characters (C0, DEL,
// C1), Unicode's bidirectional controls (U+202A–U+202E, U+2066–U+2069,
// U+200E, U+200F, U+061C: they reorder what a terminal or a web page shows,
// so that a log line could read other than it is) and invalid UTF-8 become
// U+FFFD. A line that starts with "::" after
// any blanks, Unicode ones included (a GitHub Actions workflow command),
// gets a "· " in front, and every "##[" or "##vso[" (Azure's, matched
// anywhere in a line) a "·" inside, so that no CI runner obeys either.
func Clean(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune('\uFFFD')
			i++
			continue
		case r == 0x1b:
			i += escapeLen(s[i:])
			continue
		case r == 0x9b: // C1 CSI
			i += size + csiBodyLen(s[i+size:])
			continue
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || bidiControl(r):
			b.WriteRune('\uFFFD')
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return neutraliseCommands(b.String())
}

// bidiControl says whether r is one of Unicode's bidirectional formatting
// characters: embeddings and overrides, isolates, and the marks.
func bidiControl(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c
}

func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 0x20 && c != '\n' && c != '\t') || c >= 0x7f {
			return false
		}
	}
	return !hasCommand(s)
}

// escapeLen is the length of the escape sequence at the start of s (which
// starts with ESC).
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		return 2 + csiBodyLen(s[2:])
	case ']', 'P', 'X', '^', '_': // OSC, DCS, SOS, PM, APC: up to BEL or ST
		for j := 2; j < len(s); j++ {
			if s[j] == 0x07 {
				return j + 1
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
		}
		return len(s)
	default:
		return 2
	}
}

// csiBodyLen is the length of a CSI sequence's parameters and final byte.
func csiBodyLen(s string) int {
	for j := 0; j < len(s); j++ {
		if s[j] >= 0x40 && s[j] <= 0x7e {
			return j + 1
		}
		if s[j] < 0x20 || s[j] > 0x3f && s[j] < 0x40 {
			return j
		}
	}
	return len(s)
}

// Line is Clean for text that must stay on one line (a table cell, a bench
// or host name): line breaks and tabs become spaces.
func Line(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\t' || lineBreak(r) {
			return ' '
		}
		return r
	}, Clean(s))
}
