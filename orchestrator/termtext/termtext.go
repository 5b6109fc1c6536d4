package termtext

import (
	"strings"
	"unicode/utf8"
)

// Clean keeps printable text, newlines and tabs. ANSI escape sequences (CSI,
// OSC and the rest) are dropped whole, other control characters (C0, DEL,
// C1) and invalid UTF-8 become U+FFFD, and a line that starts with "::"
// (a GitHub Actions workflow command) or "##[" / "##vso[" (Azure's) gets a
// space in front so that no CI runner obeys it.
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
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			b.WriteRune('\uFFFD')
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return neutraliseCommands(b.String())
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

func commandLine(line string) bool {
	t := strings.TrimLeft(line, " \t")
	return strings.HasPrefix(t, "::") || strings.HasPrefix(t, "##[") || strings.HasPrefix(t, "##vso[")
}

func hasCommand(s string) bool {
	for _, line := range strings.Split(s, "\n") {
		if commandLine(line) {
			return true
		}
	}
	return false
}

func neutraliseCommands(s string) string {
	if !hasCommand(s) {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if commandLine(l) {
			lines[i] = "\u00b7 " + strings.TrimLeft(l, " \t")
		}
	}
	return strings.Join(lines, "\n")
}
